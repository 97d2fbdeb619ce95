/**
 * A run's credit budget: a paid call is made only after a reservation succeeds, so parallel
 * calls never overspend; what the service actually charged is recorded afterwards.
 */
export class CreditBudget {
  private reserved = 0;
  private spentCredits = 0;

  constructor(
    readonly budget: number,
    /** The account's balance when known (null: unknown). */
    private accountBalance: number | null = null,
  ) {}

  get spent(): number {
    return this.spentCredits;
  }

  /** The account's balance as last known (null: unknown). */
  get balance(): number | null {
    return this.accountBalance;
  }

  /** Credits still available to reserve. */
  get available(): number {
    const byBudget = this.budget - this.spentCredits - this.reserved;
    const byAccount = this.accountBalance === null ? Infinity : this.accountBalance - this.reserved;
    return Math.max(0, Math.min(byBudget, byAccount));
  }

  /** Why a reservation of `cost` would fail, or null when it fits. */
  refusal(cost: number): string | null {
    if (cost <= 0) return null;
    if (this.budget - this.spentCredits - this.reserved < cost) {
      return `credit budget of ${this.budget} reached (${this.spentCredits} spent, ${this.reserved} reserved)`;
    }
    if (this.accountBalance !== null && this.accountBalance - this.reserved < cost) {
      return `account balance too low (${this.accountBalance} credits left)`;
    }
    return null;
  }

  /** Reserves `cost` credits; false when the budget or the balance does not allow it. */
  reserve(cost: number): boolean {
    if (this.refusal(cost) !== null) return false;
    this.reserved += cost;
    return true;
  }

  /**
   * Settles a reservation with what the service charged (0 when the call failed) and the
   * balance it reported. Parallel calls answer out of order, so an earlier answer may report a
   * higher balance than one already settled: the lowest balance reported is the latest.
   */
  settle(reservedCost: number, charged: number, remaining: number | null): void {
    this.reserved = Math.max(0, this.reserved - reservedCost);
    this.spentCredits += charged;
    if (remaining !== null) {
      this.accountBalance =
        this.accountBalance === null ? remaining : Math.min(this.accountBalance, remaining);
    } else if (this.accountBalance !== null) {
      this.accountBalance -= charged;
    }
  }

  /**
   * Settles a reservation whose call's outcome was unknown, once the balance was read again:
   * `paid` is what the account lost since the last known balance (the whole price when that
   * could not be read: an attempt counts as charged until the service shows otherwise).
   */
  settleUnknown(reservedCost: number, paid: number, balance: number | null): void {
    this.reserved = Math.max(0, this.reserved - reservedCost);
    this.spentCredits += paid;
    if (balance !== null) this.accountBalance = balance;
    else if (this.accountBalance !== null) this.accountBalance -= paid;
  }

  /** Records the balance the service reported. */
  setBalance(remaining: number | null): void {
    if (remaining !== null) this.accountBalance = remaining;
  }
}

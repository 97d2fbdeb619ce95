/**
 * The account workflow: one per account (its id is a hash of the service URL and the key,
 * never the key), holding the account's {@link AccountLedger}, so all workers and runs share one
 * view of the service's window and day and of the account's credits. A worker's API activities
 * get their permits in blocks (`acquirePermits`: one lease for the calls it has waiting, a paid
 * call's credit reservation with its permit) and report what the answers' rate-limit headers said,
 * which permits they gave back and what paid calls cost with their next ask, or in one
 * `permitsReport` signal when they have nothing more to ask. The per-call design before it
 * (`acquireCall` and `callDone` per call, `reserveCredits` and `settleCredits` per paid call)
 * is still answered (`VIR_ACCOUNT_PERMITS=call`). Runs reserve the day's calls they need before
 * starting them (`reserveDayCalls`). Handlers answer at once (a caller told to wait waits on its
 * side), so the workflow can continue as new whenever its history grows large.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  accountViewQuery,
  acquireCallUpdate,
  acquirePermitsUpdate,
  callDoneSignal,
  permitsReportSignal,
  CAP_PERIODS,
  releaseDayCallsSignal,
  reservationBalanceQuery,
  reserveCreditsUpdate,
  reserveDayCallsUpdate,
  settleCreditsUpdate,
  type AccountView,
} from '../shared/account.js';
import { AccountLedger, type LedgerState } from './account-ledger.js';

/** Continue as new past this many events (well below Temporal's warning at 10,240). */
export const ACCOUNT_HISTORY_LIMIT = 4000;

export interface AccountInput {
  /** The ledger carried over from the previous run of the workflow (continue-as-new). */
  state?: LedgerState;
}

/** The account's view at `now`: spending per period and job, reservations, calls. */
export function viewOf(ledger: AccountLedger, now: number): AccountView {
  const spent = {} as AccountView['spent'];
  for (const period of CAP_PERIODS) {
    const byJob: Record<string, number> = {};
    const jobs = new Set(Object.values(ledger.state.spent).flatMap((d) => Object.keys(d)));
    for (const job of jobs) {
      const credits = ledger.spentIn(period, now, job);
      if (credits > 0) byJob[job] = credits;
    }
    spent[period] = { total: ledger.spentIn(period, now), byJob };
  }
  const reserved = Object.values(ledger.state.reservations)
    .filter((r) => r.expiresAt > now)
    .reduce((s, r) => s + r.credits, 0);
  const calls = ledger.state.calls;
  return {
    at: now,
    caps: { ...ledger.state.caps },
    spent,
    reserved,
    calls: {
      dayUsed: now < calls.day.endsAt ? calls.day.used : 0,
      dayEndsAt: calls.day.endsAt,
      inFlight: ledger.callsInFlight(now),
      window: calls.window,
    },
  };
}

/** The account's ledger, for every run and worker of the account. Runs until continued as new. */
export async function accountWorkflow(input: AccountInput = {}): Promise<void> {
  const ledger = new AccountLedger(input.state);
  setHandler(reserveCreditsUpdate, (req) => ledger.reserveCredits(req, Date.now()));
  setHandler(settleCreditsUpdate, (req) => ledger.settleCredits(req, Date.now()));
  setHandler(acquireCallUpdate, (req) => ledger.acquireCall(req, Date.now()));
  setHandler(acquirePermitsUpdate, (req) => ledger.acquirePermits(req, Date.now()));
  setHandler(permitsReportSignal, (report) => ledger.takeReport(report, Date.now()));
  setHandler(reserveDayCallsUpdate, (req) => ledger.reserveDayCalls(req, Date.now()));
  setHandler(callDoneSignal, (report) => ledger.callDone(report, Date.now()));
  setHandler(releaseDayCallsSignal, ({ runId }) => ledger.releaseDayCalls(runId));
  setHandler(accountViewQuery, () => viewOf(ledger, Date.now()));
  setHandler(reservationBalanceQuery, (id) => ledger.balanceAtReserve(id));
  await condition(
    () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > ACCOUNT_HISTORY_LIMIT,
  );
  await condition(allHandlersFinished);
  await continueAsNew<typeof accountWorkflow>({ state: ledger.state });
}

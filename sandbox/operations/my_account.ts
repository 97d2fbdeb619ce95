import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const my_account: Handler<'my_account'> = () => {
  throw new SandboxError(501, 'not_implemented', 'my_account is not implemented yet');
};

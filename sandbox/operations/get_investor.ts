import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const get_investor: Handler<'get_investor'> = () => {
  throw new SandboxError(501, 'not_implemented', 'get_investor is not implemented yet');
};

import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const find_customers: Handler<'find_customers'> = () => {
  throw new SandboxError(501, 'not_implemented', 'find_customers is not implemented yet');
};

import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const find_startups_for_fund: Handler<'find_startups_for_fund'> = () => {
  throw new SandboxError(501, 'not_implemented', 'find_startups_for_fund is not implemented yet');
};

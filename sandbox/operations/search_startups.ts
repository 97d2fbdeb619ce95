import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const search_startups: Handler<'search_startups'> = () => {
  throw new SandboxError(501, 'not_implemented', 'search_startups is not implemented yet');
};

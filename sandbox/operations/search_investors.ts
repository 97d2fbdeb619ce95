import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const search_investors: Handler<'search_investors'> = () => {
  throw new SandboxError(501, 'not_implemented', 'search_investors is not implemented yet');
};

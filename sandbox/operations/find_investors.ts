import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const find_investors: Handler<'find_investors'> = () => {
  throw new SandboxError(501, 'not_implemented', 'find_investors is not implemented yet');
};

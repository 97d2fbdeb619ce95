import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const get_startup: Handler<'get_startup'> = () => {
  throw new SandboxError(501, 'not_implemented', 'get_startup is not implemented yet');
};

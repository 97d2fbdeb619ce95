import { SandboxError, type Handler } from '../types.js';

/** SCAFFOLD: replaced by the real handler (owner: see helper assignment). */
export const country_overview: Handler<'country_overview'> = () => {
  throw new SandboxError(501, 'not_implemented', 'country_overview is not implemented yet');
};

/** The users feature as the app, the CLI and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { usersApi } from './api.js';
import { usersPages } from './pages.js';

export { requireHrApi, requireHrPage, signInUrl } from './guards.js';
export { passwordProblem } from './passwords.js';
export { USERNAME_PATTERN, normaliseUsername } from './schema.js';
export * as users from './service.js';

/** Sign-in, logout, the session check and the login page. */
export function usersRoutes(ctx: AppContext): Router {
  return Router().use(usersApi(ctx), usersPages(ctx));
}

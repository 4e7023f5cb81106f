import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Express 5 forwards rejected promises itself; this wrapper only keeps handler types tidy. */
export function handler(fn: (req: Request, res: Response, next: NextFunction) => Promise<unknown> | unknown): RequestHandler {
  return (req, res, next) => {
    Promise.resolve(fn(req, res, next)).catch(next);
  };
}

/**
 * Typed errors, rendered once by the error handler: JSON under /api, HTML pages elsewhere.
 * Anything that is not an HttpError is logged and answered as a generic 500.
 */
import type { FieldErrors } from '../shared/field-errors.js';

export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export class NotFound extends HttpError {
  constructor(detail = 'Not found.') {
    super(404, detail, { detail });
  }
}

export class Unauthorized extends HttpError {
  constructor(detail = 'Authentication credentials were not provided.') {
    super(401, detail, { detail });
  }
}

/** 403 {detail}: signed in, but this user's role may not do it (HTML: the 403 page). */
export class Forbidden extends HttpError {
  constructor(detail = 'You do not have permission to perform this action.') {
    super(403, detail, { detail });
  }
}

/** 409 with `{detail}`: the request is understood but the state of what it names refuses it. */
export class Conflict extends HttpError {
  constructor(detail: string) {
    super(409, detail, { detail });
  }
}

export class TooManyRequests extends HttpError {
  constructor(
    detail: string,
    public readonly retryAfterSeconds?: number,
  ) {
    super(429, detail, { detail });
  }
}

/**
 * 503 with `Retry-After`: the service cannot answer for now (the database is down or busy, or
 * an application's commit could not be confirmed). Pages get the "temporarily unavailable" page.
 */
export class ServiceUnavailable extends HttpError {
  constructor(
    detail: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(503, detail, { detail });
  }
}

/** 400 with `{field: [messages], detail?}` as DESIGN.md section 3 says. */
export class ValidationError extends HttpError {
  constructor(
    public readonly fields: FieldErrors,
    detail?: string,
  ) {
    super(400, detail ?? 'Invalid input.', { ...fields, ...(detail ? { detail } : {}) });
  }
}

/** Builds field errors step by step; `throwIfAny` raises a ValidationError when one was added. */
export class FieldErrorBag {
  readonly fields: FieldErrors = {};
  add(field: string, message: string): void {
    this.fields[field] ??= [];
    if (!this.fields[field].includes(message)) this.fields[field].push(message);
  }
  has(field?: string): boolean {
    return field ? !!this.fields[field] : Object.keys(this.fields).length > 0;
  }
  throwIfAny(detail?: string): void {
    if (this.has()) throw new ValidationError(this.fields, detail);
  }
}

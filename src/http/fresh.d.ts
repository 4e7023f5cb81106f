/** fresh (Express's own conditional-request check; no types of its own). */
declare module 'fresh' {
  import type { IncomingHttpHeaders } from 'node:http';
  export default function fresh(reqHeaders: IncomingHttpHeaders, resHeaders: { etag?: string; 'last-modified'?: string }): boolean;
}

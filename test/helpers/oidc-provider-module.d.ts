/** oidc-provider ships no types: the little of it the test provider uses (test/helpers/oidc-provider.ts). */
declare module 'oidc-provider' {
  import type { RequestListener } from 'node:http';

  interface Account {
    accountId: string;
    claims: () => Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & { findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined> },
    );
    callback(): RequestListener;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}

import type { OutboxSignal as Outbox } from '../../http/process-parts.js';

/**
 * Tells this process's delivery worker that a post was just written, so it is sent at once. Its
 * listeners are held in a closure, so the class's type is the kernel's interface
 * (src/http/process-parts.ts) and the context's `outbox` can be handed wherever one is wanted.
 */
export class OutboxSignal implements Outbox {
  readonly notify: () => void;
  readonly subscribe: (listener: () => void) => () => void;

  constructor() {
    const listeners = new Set<() => void>();
    this.notify = () => {
      for (const listener of listeners) listener();
    };
    this.subscribe = (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
  }
}

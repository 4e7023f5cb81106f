/** The posts feature as other features see it: the outbox a new application writes to. */
export { applicationPostPayload, enqueueApplicationPost } from './repo.js';

/**
 * The tests' S3-compatible server: s3rver on 127.0.0.1, run by test/helpers/s3.ts as
 * `node --openssl-legacy-provider test/helpers/s3rver-main.mjs DIR PORT BUCKET...` (s3rver's
 * ListObjectsV2 continuation tokens use DES, which OpenSSL 3 keeps in its legacy provider).
 * Prints `listening PORT`; exits when its standard input closes, so it never outlives the tests.
 */
import S3rver from 's3rver';

const [directory, port, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name })),
});
const info = await server.run();
process.stdout.write(`listening ${info.port}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));

/** STORAGE_URL and the AWS keys as config/index.ts reads them: where uploads go, and every bad value named. */
import { expect } from 'chai';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config/index.js';

const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/srv/careers-data', ...env });

function problems(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('no ConfigError');
}

describe('STORAGE_URL', () => {
  it('unset (or blank): uploads stay in DATA_DIR/uploads', () => {
    expect(load({}).storage).to.deep.equal({ kind: 'local', root: path.join('/srv/careers-data', 'uploads') });
    expect(load({ STORAGE_URL: '  ' }).storage.kind).to.equal('local');
  });

  it('an s3:// URL names the bucket, its prefix, endpoint and region; keys come from the AWS variables', () => {
    expect(
      load({
        STORAGE_URL: 's3://careers-uploads/prod/files/?endpoint=http://127.0.0.1:9000&region=eu-west-3&force_path_style=true',
        AWS_ACCESS_KEY_ID: 'AKID',
        AWS_SECRET_ACCESS_KEY: 'sekrit',
      }).storage,
    ).to.deep.equal({
      kind: 's3',
      bucket: 'careers-uploads',
      prefix: 'prod/files/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'sekrit' },
    });
    // AWS itself: no endpoint, bucket host names, us-east-1, the SDK's default credentials.
    expect(load({ STORAGE_URL: 's3://my.bucket-1' }).storage).to.deep.equal({
      kind: 's3',
      bucket: 'my.bucket-1',
      prefix: '',
      endpoint: null,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: null,
    });
    // Another server: reached by path unless told otherwise; a session token goes along.
    const r2 = load({
      STORAGE_URL: 's3://b12/x?endpoint=https://acc.r2.cloudflarestorage.com/',
      AWS_ACCESS_KEY_ID: 'a',
      AWS_SECRET_ACCESS_KEY: 'b',
      AWS_SESSION_TOKEN: 't',
    }).storage;
    expect(r2).to.include({ endpoint: 'https://acc.r2.cloudflarestorage.com', forcePathStyle: true, prefix: 'x/' });
    expect(r2.kind === 's3' && r2.credentials).to.deep.equal({ accessKeyId: 'a', secretAccessKey: 'b', sessionToken: 't' });
    expect(load({ STORAGE_URL: 's3://b12?endpoint=http://minio:9000&force_path_style=false' }).storage).to.include({
      forcePathStyle: false,
    });
  });

  it('refuses each bad value with a message naming STORAGE_URL', () => {
    const cases: [string, string][] = [
      ['http://bucket/prefix', 'STORAGE_URL must start with s3://'],
      ['/var/uploads', 'STORAGE_URL must be an s3:// URL such as'],
      ['s3://Bad_Bucket/x', 'STORAGE_URL must name a valid bucket'],
      ['s3://ab/x', 'STORAGE_URL must name a valid bucket'],
      ['s3://192.168.1.10/x', 'STORAGE_URL must name a valid bucket'],
      ['s3://a..b/x', 'STORAGE_URL must name a valid bucket'],
      ['s3://bucket:9000/x', 'STORAGE_URL must be s3://bucket/prefix with no port'],
      ['s3://bucket/a//b', 'STORAGE_URL must have a prefix of letters'],
      ['s3://bucket/a/../b', 'STORAGE_URL must have a prefix of letters'],
      ['s3://bucket/x?endpoint=ftp://host', 'STORAGE_URL must have an endpoint that is an http:// or https:// URL'],
      ['s3://bucket/x?endpoint=not a url', 'STORAGE_URL must have an endpoint that is an http:// or https:// URL'],
      ['s3://bucket/x?endpoint=http://host:9000/path', 'STORAGE_URL must have an endpoint that is an http:// or https:// URL'],
      ['s3://bucket/x?endpoint=http://key:secret@host:9000', 'STORAGE_URL must not have a user name or password in its endpoint'],
      ['s3://bucket/x?region=EU West', 'STORAGE_URL must have a region'],
      ['s3://bucket/x?force_path_style=maybe', 'STORAGE_URL must have force_path_style=true or force_path_style=false'],
      ['s3://bucket/x?endpont=http://host', 'STORAGE_URL has unknown parameters "endpont"'],
    ];
    for (const [url, message] of cases) {
      const found = problems({ STORAGE_URL: url });
      expect(found, url).to.have.length(1);
      expect(found[0], url).to.include(message).and.include('leave it unset to keep uploads in DATA_DIR/uploads');
    }
  });

  it('refuses credentials in the URL, pointing at the AWS variables, and never repeats the password', () => {
    for (const url of ['s3://AKID:hunter2@bucket/x', 's3://AKID@bucket/x']) {
      const [message] = problems({ STORAGE_URL: url });
      expect(message).to.include(
        'STORAGE_URL must not contain a user name or password: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead',
      );
      expect(message).to.include('s3://***@bucket/x').and.not.include('hunter2');
    }
  });

  it('wants both AWS keys or neither', () => {
    expect(problems({ STORAGE_URL: 's3://bucket/x', AWS_ACCESS_KEY_ID: 'AKID' })[0]).to.include(
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together',
    );
    expect(problems({ STORAGE_URL: 's3://bucket/x', AWS_SECRET_ACCESS_KEY: 'x' })[0]).to.include(
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together',
    );
    // Without STORAGE_URL the AWS variables are none of our business.
    expect(load({ AWS_ACCESS_KEY_ID: 'AKID' }).storage.kind).to.equal('local');
  });
});

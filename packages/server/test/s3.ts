import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-compatible server on 127.0.0.1 (s3rver, files in a temporary folder) with one bucket:
 * its `S3_URL` (s3rver's fixed keys) and a way to stop it.
 */
export async function startS3(bucket = 'stageline-files') {
  const directory = await mkdtemp(path.join(tmpdir(), 'stageline-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    url: `http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}`,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

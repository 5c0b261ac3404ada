import { DiskStore } from './disk-store';
import { checkKey, type ObjectStore } from './object-store';
import { S3Store } from './s3-store';
import { parseStorageUrl } from './storage-url';

/**
 * The store for one area of the service (`media`, …): under `<prefix>/` of the bucket when `SVC_STORAGE_URL`
 * is set, else the local directory `localDir`.
 */
export function openObjectStore(storageUrl: string | undefined, area: string, localDir: string): ObjectStore {
  if (!storageUrl) return new DiskStore(localDir);
  const parsed = parseStorageUrl(storageUrl);
  return new S3Store({ ...parsed, prefix: `${parsed.prefix}${checkKey(area)}/` });
}

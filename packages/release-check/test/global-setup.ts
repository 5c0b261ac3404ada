import { packPackages } from '../src/pack-packages';

/** Packs the published packages once for the run, before any file starts: every check then reads the same tarballs. */
export default async function setup() {
  await packPackages();
}

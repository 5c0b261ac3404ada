export { packPackages, PUBLISHED, ROOT, type PublishedName, type Tarballs } from './pack-packages';
export { installPacked } from './install-packed';
export { oldestNode, OLDEST_NODE, run } from './run';
export { typePrinter, type TypePrinter } from './print-types';

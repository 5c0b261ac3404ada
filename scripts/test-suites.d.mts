/** Types of scripts/test-suites.mjs, for the packages' vitest configurations. */
export interface Suite {
  about: string;
  needs: { debian: string; present: () => boolean }[];
  files: Record<string, string[]>;
}
export const SUITES: Record<string, Suite>;
export function optedOut(): string[];
export function excludedFiles(packageDir: string): string[];
export function missingPackages(): string[];

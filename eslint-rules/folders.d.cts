/** Types for the unit test (src/folders.spec.ts); the module is plain CommonJS for eslint.config.mjs. */
export declare const FOUNDATIONS: readonly string[];
export declare function featureFolders(srcDir: string): string[];
export declare function boundaryZones(srcDir: string, prefix?: string): { target: string; from: string; except?: string[]; message: string }[];
export declare function folderImports(srcDir: string): Map<string, string[]>;
export declare function folderCycles(edges: Map<string, string[]>): string[][];
export declare function mayHoldSql(relativePath: string): boolean;
export declare function sqlIn(fileName: string, text: string): { line: number; what: string }[];
export declare function sqlOutsideRepositories(srcDir: string): Map<string, { line: number; what: string }[]>;

// Types of server-scripts.mjs (plain JavaScript, run by `npm run build` without tsx).
export declare const SERVER_SCRIPTS: Record<string, string>;
export declare function buildServerScripts(root?: string): Promise<string[]>;
export declare function buildScript(root: string, entry: string, outfile: string): Promise<void>;

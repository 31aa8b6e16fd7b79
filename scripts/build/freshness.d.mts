// Types of ./freshness.mjs (plain JavaScript, read by scripts/run-script.mjs without tsx).
export interface BuildCheck {
  current: boolean;
  /** Why not, in words, when it is not. */
  reason?: string;
}
export declare const NEXT_SOURCES: string[];
export declare const SERVER_SCRIPT_SOURCES: string[];
export declare const SERVER_SCRIPT_OUTPUTS: string[];
export declare function checkNextBuild(distDir?: string, root?: string): BuildCheck;
export declare function checkServerScript(output: string, root?: string): BuildCheck;
export declare function checkProductionBuild(distDir?: string, root?: string): BuildCheck;

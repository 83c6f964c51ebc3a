// Preloaded by bunfig.toml: after the last test of the run (every file), the temporary folders
// made through tempDir are removed.
import { afterAll } from "bun:test";
import { removeTempDirs } from "./temp-dirs.ts";

afterAll(removeTempDirs);

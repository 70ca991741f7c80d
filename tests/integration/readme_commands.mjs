// SPDX-License-Identifier: Apache-2.0
// Every command of README.md, checked (test readme-commands): the lines of
// its ```sh blocks and its inline code spans that start with `make`,
// `merlin`, `build/host/merlin`, `node scripts/` or `scripts/`.
//   make T                 the target exists: `make -n T` succeeds (a
//                          dry run: `make bench` is not run in full)
//   merlin run ...         planned, not run: the same command line with
//                          `--plan-only -` checks targets, profiles,
//                          boards, folders and every option, builds and
//                          runs nothing (`--out DIR` is left out of it;
//                          with --port, --from or --plan only the options
//                          are checked)
//   merlin list|report|compare ...   run, in a scratch directory whose
//                          results/latest and baseline are copies of the
//                          report-data fixture
//   merlin OTHER ...       `merlin OTHER --help` works and every option
//                          is one of `merlin help --options`
//   node scripts/X, scripts/X   the script exists (and answers --help
//                          when it is a .mjs)
//   cat > FILE <<'EOF'     run in the scratch directory (a profile a
//                          recipe writes)
// Inline spans are checked, not run (`merlin list profiles` names a
// command in prose). `path/to/...` stands for a tree of implementation
// folders: tests/impl. External programs a recipe may show (EXTERNAL) are
// not run. Anything else in a sh block fails the test, so a new command is
// classified when it is added. It also checks docs/layout.md: every tracked
// top-level folder and every folder of src/ and host/ is named there.
//   node readme_commands.mjs MERLIN ROOT ART
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [merlin, root, art] = process.argv.slice(2);
const EXTERNAL = new Set(["sbatch", "srun", "parallel", "ssh", "openocd", "picotool", "nrfjprog", "pyocd", "git"]);
let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else {
    failed++;
    console.log("FAIL: " + what);
  }
};

const work = mkdtempSync(join(tmpdir(), "merlin-readme-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
mkdirSync(join(work, "results"));
cpSync(join(art, "report-data"), join(work, "results", "latest"), { recursive: true });
cpSync(join(art, "report-data"), join(work, "baseline"), { recursive: true });
symlinkSync(join(root, "third_party"), join(work, "third_party"));
const env = { ...process.env, MERLIN_ROOT: root };
const run = (argv, cwd = work) => spawnSync(argv[0], argv.slice(1), { cwd, env, encoding: "utf8", timeout: 120000 });
const said = (r) => ((r.stdout || "") + (r.stderr || "")).trim().split("\n").slice(-3).join(" / ");

// The commands: sh blocks (continuation lines joined, comments cut, a
// here-document kept with its body), then inline spans.
const text = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const commands = [];
for (const b of blocks) {
  const lines = b.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + " " + lines[++i];
    const doc = line.match(/<<'?(\w+)'?\s*$/);
    if (doc) {
      const body = [];
      while (++i < lines.length && lines[i] !== doc[1]) body.push(lines[i]);
      commands.push({ kind: "heredoc", line, body: body.join("\n") + "\n" + doc[1] });
      continue;
    }
    line = line.replace(/\s+#.*$/, "").trim();
    if (line && !line.startsWith("#")) commands.push({ kind: "block", line });
  }
}
const prose = text.replace(/^```[\s\S]*?^```$/gm, "").replace(/<!--[\s\S]*?-->/g, "");
for (const m of prose.matchAll(/`((?:make|merlin|build\/host\/merlin) [^`]+|(?:node scripts\/|scripts\/)[^`]*)`/g))
  commands.push({ kind: "inline", line: m[1] });

const help = run([merlin, "help", "--options"]).stdout || "";
const known = new Set(help.split("\n").filter(Boolean));
const makeTargets = new Set();

function checkMerlin(c, argv) {
  const [sub, ...args] = argv;
  if (sub === "help") {
    const r = run([merlin, sub, ...args]);
    check(r.status === 0 && r.stdout.length > 0, `${c.line}: exit ${r.status}: ${said(r)}`);
    return;
  }
  const h = run([merlin, sub, "--help"]);
  check(h.status === 0, `${c.line}: merlin ${sub} --help exits ${h.status}`);
  for (const a of args) {
    const opt = a.split("=")[0];
    if (/^--?[a-zA-Z]/.test(opt) && !["-h", "--help"].includes(opt))
      check(known.has(`${sub} ${opt}`), `${c.line}: merlin ${sub} has no option ${opt}`);
  }
  if (c.kind === "inline") return;
  const real = args.map((a) => (a.startsWith("path/to/") ? join(root, "tests", "impl") : a));
  if (sub === "run" && !args.some((a) => ["--port", "--from", "--plan"].includes(a))) {
    const plan = [];
    for (let k = 0; k < real.length; k++) {
      if (real[k] === "--out") k++;
      else plan.push(real[k]);
    }
    const r = run([merlin, "run", ...plan, "--plan-only", "-"]);
    check(r.status === 0 && /"merlin_plan"/.test(r.stdout), `${c.line}: planned (--plan-only): exit ${r.status}: ${said(r)}`);
  } else if (["list", "report", "compare"].includes(sub)) {
    const r = run([merlin, sub, ...real]);
    check(r.status === 0, `${c.line}: exit ${r.status}: ${said(r)}`);
  }
}

for (const c of commands) {
  const argv = c.line.split(/\s+/);
  if (c.kind === "heredoc") {
    const r = spawnSync("bash", ["-c", c.line + "\n" + c.body], { cwd: work, encoding: "utf8" });
    check(r.status === 0, `${c.line}: exit ${r.status} ${r.stderr}`);
  } else if (argv[0] === "make") {
    for (const t of argv.slice(1)) makeTargets.add(t);
  } else if (argv[0] === "merlin" || argv[0] === "build/host/merlin") {
    checkMerlin(c, argv.slice(1));
  } else if (argv[0] === "node" && argv[1] && argv[1].startsWith("scripts/")) {
    check(existsSync(join(root, argv[1])), `${c.line}: no ${argv[1]}`);
    if (argv[1].endsWith(".mjs")) {
      const r = run(["node", join(root, argv[1]), "--help"], root);
      check(r.status === 0, `${c.line}: --help exits ${r.status}`);
    }
  } else if (argv[0].startsWith("scripts/")) {
    const p = join(root, argv[0]);
    check(existsSync(p) && (statSync(p).mode & 0o111) !== 0, `${c.line}: ${argv[0]} is not an executable script`);
  } else if (EXTERNAL.has(argv[0])) {
    passed++; // another program's command, shown, not run
  } else {
    check(false, `${c.line}: a command this test does not know how to check (tests/integration/readme_commands.mjs)`);
  }
}
for (const t of makeTargets) {
  const r = run(["make", "-n", t], root);
  check(r.status === 0, `make ${t}: no such target (make -n: ${said(r)})`);
}

// docs/layout.md names every folder.
const layout = readFileSync(join(root, "docs", "layout.md"), "utf8");
const tracked = (spawnSync("git", ["-C", root, "ls-files"], { encoding: "utf8" }).stdout || "").split("\n");
const dirs = new Set(tracked.filter((f) => f.includes("/")).map((f) => f.split("/")[0] + "/"));
for (const f of tracked) {
  const p = f.split("/");
  if ((p[0] === "src" || p[0] === "host") && p.length > 2) dirs.add(`${p[1]}/`);
}
for (const d of dirs) check(layout.includes(d), `docs/layout.md does not name the folder ${d}`);

console.log(`${commands.length} commands of README.md (${blocks.length} sh blocks), ${makeTargets.size} make targets, ${dirs.size} folders of docs/layout.md`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

#!/usr/bin/env node
// A real MCP client (the official TypeScript SDK) driving one whole
// sessiongate session, over stdio or Streamable HTTP:
//
//   node session-client.mjs --stdio /path/to/sessiongate --repo DIR
//   node session-client.mjs --http http://127.0.0.1:7420/mcp --repo DIR [--token T]
//
// DIR is a git repository holding server/testdata/SESSION-PROTOCOL.md as
// its SESSION-PROTOCOL.md. The script lists tools (so the client checks
// every structuredContent against the tool's output schema), then runs:
// start, a failing gate, a blocked advance, evidence, a passing advance,
// a forced advance that records a violation, a refused end, blocked ends,
// a commit, the end; and reads every resource. It prints each check and
// exits 1 on the first mismatch.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (!k.startsWith("--")) throw new Error(`unexpected argument ${k}`);
    out[k.slice(2)] = argv[++i];
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
if (!args.repo || (!args.stdio && !args.http)) {
  console.error("usage: session-client.mjs (--stdio BINARY | --http URL [--token T]) --repo DIR");
  process.exit(2);
}

let checks = 0;
function check(cond, what, detail) {
  if (!cond) {
    console.error(`FAIL ${what}${detail === undefined ? "" : `: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`}`);
    process.exit(1);
  }
  checks++;
  console.log(`ok   ${what}`);
}

function text(res) {
  return (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

function git(...a) {
  return execFileSync("git", a, {
    cwd: args.repo,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" },
  }).trim();
}

let transport;
if (args.stdio) {
  transport = new StdioClientTransport({ command: args.stdio, args: ["mcp"], cwd: args.repo, stderr: "inherit" });
} else {
  const headers = args.token ? { Authorization: `Bearer ${args.token}` } : {};
  transport = new StreamableHTTPClientTransport(new URL(args.http), { requestInit: { headers } });
}
const client = new Client({ name: "sessiongate-ci-node-client", version: "1.0.0" });
await client.connect(transport);
const via = args.stdio ? "stdio" : "http";
console.log(`connected over ${via} to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version}`);
check(client.getServerVersion()?.name === "sessiongate", "server name is sessiongate", client.getServerVersion());
if (!args.stdio) {
  check(transport.sessionId === undefined, "no Mcp-Session-Id was issued (SEP-2567)", transport.sessionId);
}

async function call(name, a) {
  return client.callTool({ name, arguments: a });
}
async function ok(name, a) {
  const res = await call(name, a);
  check(!res.isError, `${name} succeeds`, text(res));
  check(res.structuredContent && typeof res.structuredContent === "object", `${name} returns structuredContent`);
  check(text(res).length > 0, `${name} returns readable text`);
  return res.structuredContent;
}
async function refused(name, a, want) {
  const res = await call(name, a);
  check(res.isError === true, `${name} refused with isError`, text(res));
  check(text(res).includes(want), `${name} says "${want}"`, text(res));
  return res;
}

// tools/list (caches output validators: every later result is checked against its schema)
const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
check(
  JSON.stringify(names) === JSON.stringify(["advance_phase", "get_blocked_reason", "record_evidence", "session_end", "session_start", "validate_gate"]),
  "tools/list has the six tools",
  names,
);
for (const t of tools) check(t.outputSchema?.type === "object", `${t.name} has an output schema`);
const ev = tools.find((t) => t.name === "record_evidence");
check(
  JSON.stringify(ev.inputSchema.properties.evidence_type.enum) === JSON.stringify(["tool_output", "file_path", "commit_sha", "content_hash", "manual"]),
  "record_evidence.evidence_type is an enum of the evidence kinds",
);

// start
const start = await ok("session_start", { objective: `node client over ${via}` });
const id = start.session_id;
check(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id), "session_id is a UUID v4", id);
check(start.phase === "CONTEXT_RETRIEVAL" && start.state === "INIT", "session starts at CONTEXT_RETRIEVAL", start);
check(JSON.stringify(start.blocked_until) === JSON.stringify(["CONTEXT_RETRIEVAL", "PLAN"]), "blocked_until lists the BLOCKING start phases", start.blocked_until);
check(start.checklist.length === 4, "checklist has every phase", start.checklist.length);

// a failing gate, a blocked advance
let gate = await ok("validate_gate", { session_id: id });
check(gate.passed === false && gate.status === "FAIL", "gate fails before evidence", gate);
let res = await refused("advance_phase", { session_id: id }, "Blocked by BLOCKING gate CONTEXT_RETRIEVAL");
check(res.structuredContent?.advanced === false && res.structuredContent?.blocked?.phase === "CONTEXT_RETRIEVAL", "blocked advance keeps its structured result", res.structuredContent);
const why = await ok("get_blocked_reason", { session_id: id });
check(why.is_blocked === true && why.blocked_phases[0].phase === "CONTEXT_RETRIEVAL" && why.blocked_phases[0].requirement_level === "BLOCKING", "get_blocked_reason names the blocking phase", why);
check(why.blocked_phases[0].evidence_needed.length > 0 && why.suggested_actions.length > 0, "get_blocked_reason says what is needed", why);

// evidence, a passing gate and advance
const rec = await ok("record_evidence", { session_id: id, phase: "CONTEXT_RETRIEVAL", evidence_type: "tool_output", evidence: "read README.md" });
check(/^[0-9a-f]{64}$/.test(rec.sha256), "evidence is stored as a sha256", rec);
gate = await ok("validate_gate", { session_id: id });
check(gate.passed === true && gate.status === "PASS", "gate passes after evidence", gate);
let adv = await ok("advance_phase", { session_id: id });
check(adv.advanced === true && adv.to === "PLAN", "advance to PLAN", adv);

// errors the model can act on
await refused("validate_gate", { session_id: "not-a-handle" }, "pass the session_id that session_start returned");
await refused("validate_gate", { session_id: "00000000-0000-4000-8000-000000000000" }, "start one with session_start");
await refused("validate_gate", { session_id: id, phase: "NOPE" }, 'unknown phase "NOPE"');
await refused("record_evidence", { session_id: id, phase: "PLAN", evidence_type: "file_path", evidence: "../../etc/passwd" }, "outside the repository");
await refused("record_evidence", { session_id: id, phase: "PLAN", evidence_type: "tool_output", evidence: "x".repeat(65537) }, "the limit is 65536");
await refused("advance_phase", { session_id: id, force: true }, "force needs a reason");

// a forced advance records a violation
adv = await ok("advance_phase", { session_id: id, force: true, reason: "one-line change, no plan" });
check(adv.advanced === true && adv.to === "WORKING", "forced advance to WORKING", adv);
check(adv.violations.length === 1 && adv.violations[0].severity === "CRITICAL" && adv.violations[0].code === "FORCED_ADVANCE", "forced advance records a CRITICAL violation", adv.violations);

// ending is refused right after the force (sequence rule), then blocked by QA, then by the commit
await refused("session_end", { session_id: id, summary: "done" }, "sequence rule");
gate = await ok("validate_gate", { session_id: id, phase: "QA_VALIDATION" });
check(gate.passed === false, "QA gate fails without test output", gate);
// a read-only call in between does not dodge the rule; recording what was done does
await refused("session_end", { session_id: id, summary: "done" }, "end-after-forced-blocking-gate");
await ok("record_evidence", { session_id: id, phase: "PLAN", evidence_type: "manual", evidence: "one-line change, no plan needed" });
res = await refused("session_end", { session_id: id, summary: "done" }, "QA_VALIDATION");
check(res.structuredContent?.ended === false && res.structuredContent?.blocked?.phase === "QA_VALIDATION", "blocked end keeps its structured result", res.structuredContent);
await ok("record_evidence", { session_id: id, phase: "QA_VALIDATION", evidence_type: "tool_output", evidence: "PASS 12 tests" });
res = await refused("session_end", { session_id: id, summary: "done" }, "GIT_OPERATIONS");
writeFileSync(join(args.repo, `change-${via}.txt`), "a change\n");
git("add", `change-${via}.txt`);
git("commit", "-q", "-m", `change over ${via}`);
const end = await ok("session_end", { session_id: id, summary: `did it over ${via}`, next_session_notes: "write PLAN.md first" });
check(end.ended === true && end.state === "COMPLETE", "session ends COMPLETE", end);
check(end.ending_commit === git("rev-parse", "HEAD"), "ending_commit is HEAD", end.ending_commit);
await refused("advance_phase", { session_id: id }, "start a new session");

// resources
const { resources } = await client.listResources();
check(resources.some((r) => r.uri === "sessiongate://protocol" && r.mimeType === "text/markdown"), "resources/list has the protocol", resources);
const { resourceTemplates } = await client.listResourceTemplates();
const tmpls = resourceTemplates.map((r) => r.uriTemplate).sort();
check(
  JSON.stringify(tmpls) === JSON.stringify(["session://{session_id}/checklist", "session://{session_id}/history", "session://{session_id}/state", "session://{session_id}/violations"]),
  "resources/templates/list has the four session templates",
  tmpls,
);
async function readJSON(uri) {
  const r = await client.readResource({ uri });
  check(r.contents.length === 1 && r.contents[0].mimeType === "application/json", `read ${uri}`, r.contents);
  return JSON.parse(r.contents[0].text);
}
const state = await readJSON(`session://${id}/state`);
check(state.session.state === "COMPLETE" && state.session.next_session_notes === "write PLAN.md first", "state resource shows the ended session", state.session);
// three claims (the commit made without hooks is reconciled as observed bypass_commit evidence)
check(state.evidence.filter((e) => e.origin === "claimed").length === 3 && state.evidence.every((e) => e.body === undefined), "state resource has evidence references, no bodies", state.evidence);
const cl = await readJSON(`session://${id}/checklist`);
const st = Object.fromEntries(cl.checklist.map((c) => [c.phase, c.status]));
check(st.CONTEXT_RETRIEVAL === "PASSED" && st.PLAN === "FORCED" && st.QA_VALIDATION === "PASSED" && st.GIT_OPERATIONS === "PASSED", "checklist resource shows each phase's status", st);
const hist = await readJSON(`session://${id}/history`);
const toks = hist.events.map((e) => e.token);
for (const t of ["tool:session_start", "tool:advance_phase:blocked", "tool:advance_phase:force", "gate:PLAN:forced:blocking", "tool:session_end"]) {
  check(toks.includes(t), `history has ${t}`, toks);
}
const vs = await readJSON(`session://${id}/violations`);
check(vs.violations.some((v) => v.code === "FORCED_ADVANCE" && v.phase === "PLAN" && v.severity === "CRITICAL"), "violations resource has the forced advance", vs.violations);
const proto = await client.readResource({ uri: "sessiongate://protocol" });
check(proto.contents[0].mimeType === "text/markdown" && proto.contents[0].text.includes("### Phase 2: Plan (BLOCKING)"), "protocol resource is the document");
const spec = await readJSON("sessiongate://protocol/spec");
check(spec.sha256 === state.session.protocol_sha256 && spec.phases.length === 4, "protocol spec resource matches the session's protocol", spec.sha256);
try {
  await client.readResource({ uri: `session://00000000-0000-4000-8000-000000000000/state` });
  check(false, "unknown session resource is an error");
} catch (e) {
  check(e.code === -32602, "unknown session resource is resource-not-found (-32602)", `${e.code} ${e.message}`);
}

await client.close();
console.log(`${checks} passed, 0 failed (${via})`);

// Drives `charon mcp KB --stdio` with the official TypeScript MCP SDK.
//
//   node check_ts.mjs NODE_MODULES CHARON ROOT
//
// Prints one line per check and `N passed, M failed`; exits non-zero on a failure.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const [modules, charon, root] = process.argv.slice(2);
const sdk = (p) => import(pathToFileURL(join(modules, "@modelcontextprotocol/sdk/dist/esm", p)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");

let passed = 0, failed = 0;
const check = (name, ok, detail = "") => {
  ok ? passed++ : failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${detail}`}`);
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const kb = join(root, "examples/meds.pl");
const transport = new StdioClientTransport({
  command: charon,
  args: ["mcp", kb, "--stdio", "--log", "warn"],
  cwd: root,
  stderr: "inherit",
});
const client = new Client({ name: "charon-ts-check", version: "1.0.0" });
try {
  await client.connect(transport);
  check("initialize", client.getServerVersion()?.name === "charon", JSON.stringify(client.getServerVersion()));
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check("tools/list", same(names, ["drug_class", "get_interaction", "is_pim", "pim_check", "ready", "screening_summary"]), names.join(","));
  const hint = tools.find((t) => t.name === "get_interaction")?.annotations?.readOnlyHint;
  check("get_ tool is readOnlyHint", hint === true, String(hint));
  let r = await client.callTool({ name: "pim_check", arguments: { Age: 82, Drugs: ["diazepam", "aspirin"] } });
  check("tools/call nondet", !r.isError && r.structuredContent?.result?.length === 1
    && r.structuredContent.result[0].Substance === "diazepam", JSON.stringify(r));
  r = await client.callTool({ name: "get_interaction", arguments: { First: "aspirin", Second: "water" } });
  check("tools/call semidet without an answer is null", !r.isError && same(r.structuredContent, { result: null }), JSON.stringify(r));
  r = await client.callTool({ name: "drug_class", arguments: { Drug: 7 } });
  check("bad arguments are an isError result", r.isError === true && /Drug/.test(r.content[0].text), JSON.stringify(r));
  const res = await client.readResource({ uri: "charon://source" });
  check("resources/read charon://source", res.contents[0].text === readFileSync(kb, "utf8"), res.contents[0].text.slice(0, 60));
} catch (e) {
  check("session ran to the end", false, String(e?.stack ?? e));
} finally {
  await client.close().catch(() => {});
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

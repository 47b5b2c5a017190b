// Loads GET /docs of a running `charon http` in headless Chromium (the system's,
// driven by playwright-core) with every network request outside the server
// blocked, checks that every operation of /openapi.json renders, then runs one
// operation with "Try it" and checks the answer shown.
// Usage: node check_docs.mjs NODE_MODULES URL OPERATION ARGS_JSON EXPECTED_JSON
import { createRequire } from "node:module";
import { join } from "node:path";

const [modules, url, operation, argsJson, expectedJson] = process.argv.slice(2);
const { chromium } = createRequire(join(modules, "index.js"))("playwright-core");
const fail = (why) => { console.error(`check_docs: ${why}`); process.exit(1); };
const origin = new URL(url).origin;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  const page = await browser.newPage();
  const outside = [];
  await page.route("**/*", (route) => {
    if (route.request().url().startsWith(origin)) return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const response = await page.goto(`${url}/docs`);
  if (response.status() !== 200) fail(`GET /docs answered ${response.status()}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });

  const doc = await (await fetch(`${url}/openapi.json`)).json();
  const expected = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  const rendered = await page.$$eval("details.op", (ops) => ops.map((d) => d.id.replace(/^op-/, "")));
  for (const id of expected) if (!rendered.includes(id)) fail(`operation ${id} is not on the page`);
  if (rendered.length !== expected.length) fail(`${rendered.length} operations rendered, ${expected.length} in the document`);

  const op = page.locator(`#op-${operation}`);
  await op.locator("summary").click();
  for (const [name, value] of Object.entries(JSON.parse(argsJson))) {
    await op.locator(`input[name="${name}"]`).fill(typeof value === "string" ? value : JSON.stringify(value));
  }
  await op.getByRole("button", { name: "Try it" }).click();
  await op.locator(".status[data-status]").waitFor({ timeout: 15000 });
  const status = await op.locator(".status").getAttribute("data-status");
  const shown = JSON.parse(await op.locator("pre.response").textContent());
  if (status !== "200") fail(`Try it on ${operation} answered ${status}: ${JSON.stringify(shown)}`);
  if (JSON.stringify(shown) !== JSON.stringify(JSON.parse(expectedJson))) {
    fail(`Try it on ${operation} showed ${JSON.stringify(shown)}, expected ${expectedJson}`);
  }
  if (outside.length) fail(`the page asked for something outside the server: ${outside.join(", ")}`);
  if (errors.length) fail(`script errors: ${errors.join("; ")}`);
  console.log(`check_docs: ${rendered.length} operations rendered; Try it on ${operation} answered ${JSON.stringify(shown)}`);
} finally {
  await browser.close();
}

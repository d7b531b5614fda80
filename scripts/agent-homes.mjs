#!/usr/bin/env node
// The variables that move an agent's own folder, as the adapters declare them (files.ts), one a
// line: .ci/run points each into the tests' empty home folder. Runs on the built adapters.
const { AGENTS } = await import(new URL('../packages/adapters/dist/agents.js', import.meta.url).href);

for (const agent of Object.values(AGENTS))
  for (const home of agent.files.homes) if (home.file !== true) console.log(home.variable);

// Runs the Khronos glTF-Validator (npm `gltf-validator`, the official validator compiled to JS)
// on each FILE and prints one JSON array: per file its path, numErrors, numWarnings, numInfos,
// numHints and every message ({code, severity, pointer, message}; severity 0 error, 1 warning,
// 2 info, 3 hint). External resources are read from the file's folder.
//
//   node tests/conformance/validate_gltf.mjs FILE...
//
// Exits 0 when every file was validated (whatever it reported), 2 on bad usage or when the
// validator could not run on a file.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate_gltf.mjs FILE...');
  process.exit(2);
}

const reports = [];
for (const file of files) {
  const bytes = new Uint8Array(await readFile(file));
  try {
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 1000,
      externalResourceFunction: (uri) =>
        readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then(
          (data) => new Uint8Array(data),
        ),
    });
    const issues = report.issues;
    reports.push({
      file,
      numErrors: issues.numErrors,
      numWarnings: issues.numWarnings,
      numInfos: issues.numInfos,
      numHints: issues.numHints,
      messages: issues.messages.map(({ code, severity, pointer, message }) => ({
        code,
        severity,
        pointer,
        message,
      })),
    });
  } catch (error) {
    console.error(`${file}: the validator could not run: ${error}`);
    process.exit(2);
  }
}
console.log(JSON.stringify(reports, null, 2));

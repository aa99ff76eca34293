import { admin } from './main';

// `node dist/admin.js <command> [arguments]` (`npm run admin -- …`): docs/operations.md.
admin(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

// ESLint with typescript-eslint's type-checked rules over every TypeScript folder: in a Worker a
// floating promise is a lost write or an unhandled rejection (no-floating-promises,
// no-misused-promises), and `any` leaking out of JSON.parse hides a wrong field name from the
// type checker. Part of `npm test`; docs/contributing.md#the-checks.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      ".dist-*/**",
      ".out/**",
      ".cache/**",
      ".wrangler/**",
      "node_modules/**",
      "test/generated/**",
      "worker-configuration.d.ts",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
);

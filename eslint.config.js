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
    rules: {
      // Narrowed to the project's way of leaving a field out of a copy: destructure it under a
      // name no one reads (`const { date: _date, ...rest } = headers`); the rest is what is used.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
);

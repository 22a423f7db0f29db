import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    // oclif v4 writes with console.log; vitest's console interception would hide it from @oclif/test's capture
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    coverage: {provider: 'v8', include: ['src/**'], reporter: ['text', 'json-summary']},
  },
})

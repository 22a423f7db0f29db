// Preloaded (`node --import`) into a CLI process by gate.bench.ts: prints the process's peak
// resident set size and CPU time at exit (worker threads are in the same process: both count them).
process.on('exit', () => {
  const u = process.resourceUsage()
  process.stderr.write(`MAXRSS ${u.maxRSS * 1024} CPU ${(u.userCPUTime + u.systemCPUTime) / 1e6}\n`)
})

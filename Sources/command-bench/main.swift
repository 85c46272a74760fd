// Placeholder until the benchmarks land.
print("command-bench: not built yet")

// Placeholder until the albums issue lands.
print("albums: not built yet")

print("bench: not yet")

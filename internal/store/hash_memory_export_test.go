package store

// HashMemoryIdle is how long the password gate stays idle before the
// hashes' memory goes back.
const HashMemoryIdle = hashMemoryIdle

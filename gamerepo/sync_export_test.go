package gamerepo

// SetNoSync makes c skip fsync, for fast tests.
func SetNoSync(c *Cache) { c.nosync = true }

"""SRL frames on a Doc (one span group per predicate) and their HTML rendering."""

"""Ranking engine: 'most promising first', 'why this paper', 'more like this', simulation.

Pure engine: no database, no index, no Qt. Services hand it papers and decisions and get
back ids, scores and plain data. See each module for its one job.
"""

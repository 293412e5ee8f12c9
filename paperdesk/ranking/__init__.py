"""Ranking engine: 'most promising first', 'why this paper', 'more like this', simulation.

Pure engine: no database, no index, no Qt. Services hand it papers and decisions and get
back ids, scores and plain data. Nothing is re-exported here, so that importing one
light module (labels, metrics) does not load scikit-learn at start-up.

    features.FeatureMatrix.build(pairs of (id, paper), hidden=())   once per library
        .with_papers(pairs) / .without(ids)                          after a change
    model.train(features, {id: relevant}, query="") -> Scorer | None
    model.rank(features, scorer, candidate_ids) -> ids, most promising first
    model.more_like(features, id, limit) -> [(id, similarity)]
    model.decision_label(status, rating, kept) -> True / False / None
    explain.explain(features, scorer, id, paper) -> Explanation (terms raising/lowering)
    background.BackgroundRanker(features, labels, query)            one per triage
        .decide(id, relevant | None), .next_paper(candidates), .set_features(features)
    labels.parse_relevant("venue=CORL") -> RelevanceRule
    simulation.simulate(records, is_relevant, prior, seed, ...) -> SimulationResult
"""

// Which of these result keys are already recorded.
UNWIND $keys AS key
MATCH (res:QualityResult {key: key})
RETURN res.key AS key

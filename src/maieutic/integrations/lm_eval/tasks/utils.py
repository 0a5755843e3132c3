"""What the task YAMLs beside this file call (lm-eval imports it by its path)."""

from maieutic.integrations.lm_eval.glue import dataset_of, figure, process_results

cqs_dataset = dataset_of("cqs")
focus_dataset = dataset_of("focus")
compqa_dataset = dataset_of("compqa")
aura_dataset = dataset_of("aura")

# cqs
overall = figure("overall")
useful_rate = figure("useful_rate")
nae_rate = figure("nae_rate")
# focus
macro_f1 = figure("macro_f1")
span_jaccard = figure("span_jaccard")
span_rouge_l = figure("span_rouge_l")
# compqa
rubric_total = figure("rubric_total")
structure = figure("structure")
relevance = figure("relevance")
quality = figure("quality")
# aura
aura = figure("aura")
answerability = figure("answerability")
coverage = figure("coverage")
non_redundancy = figure("non_redundancy")
entropy = figure("entropy")

__all__ = ["process_results"]

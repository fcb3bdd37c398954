"""Resubmission pairs written by hand as real authors make them, and hard negatives (issue 37: the
judged case is real pairs with no full text, only what the records carry). Each case states by hand
whether its two records are versions of one paper; nothing here is derived from the linking rule.

How the versions were written: the later version is retitled (a new title, or the method's name put
first), its abstract rewritten by 30-60 % (opening sentence rewritten, numbers and datasets updated,
results added, a claim rephrased), its author list reordered and grown. Where the earlier venue was
double-blind and rejected, its authors are what the API shows a reader: "Anonymous" in an API v1
blind note (openreview-py, openreview/conference/conference.py `create_blind_submissions`:
`blind_content = {'authors': ['Anonymous'], 'authorids': [<Paper<N>/Authors group>]}`), nothing in an
API v2 note whose `authors` field has readers of its own (docs/openreview-api.md, the submission's
fields). Hard negatives: the same topic with the same keywords and the area's stock opening sentence
(a different group), and a follow-up paper of the same group (authors shared, problem sentence reused)."""
from __future__ import annotations

from reviewbench_assets.domain.resubmissions import Submission

ANON = ("Anonymous",)  # an API v1 blind note's authors while they are hidden


def rec(id: str, venue_year: str, time: int, title: str, abstract: str, authors=(), decision=None) -> Submission:
    return Submission(id=id, venue_year=venue_year, time=time, title=title, abstract=abstract,
                      authors=tuple(authors), decision=decision)


# P1 ICLR 2023 reject -> NeurIPS 2023 accept: retitled, abstract ~45 % rewritten, authors reordered, one added
TOME_A = rec("tome_iclr23", "iclr-2023", 1_664_000_000_000,
             "Token Merging for Faster Vision Transformer Inference Without Retraining",
             "Vision transformers are expensive at inference time because the cost of self-attention grows "
             "quadratically with the number of tokens. We propose a training-free method that gradually merges "
             "similar tokens between transformer blocks using a lightweight bipartite matching algorithm. Unlike "
             "token pruning, merging keeps the information of the removed tokens and requires no changes to the "
             "model weights. On ImageNet-1k, our method doubles the throughput of a ViT-L model with a drop of "
             "only 0.4% top-1 accuracy, and it can be applied to off-the-shelf models in a few lines of code. We "
             "further show that merging also speeds up training when applied during fine-tuning.",
             ["Daria Bolek", "Chen-Yu Fang", "Xiao Dai", "Judith Hoffer"], "Reject")
TOME_B = rec("tome_nips23", "neurips-2023", 1_683_000_000_000,
             "Bipartite Token Merging: Training-Free Acceleration of Transformers for Images, Video and Audio",
             "The quadratic cost of self-attention in the number of tokens makes transformers slow to deploy on "
             "images, video and audio. We propose a training-free method that gradually merges similar tokens "
             "between transformer blocks using a lightweight bipartite matching algorithm. Unlike token pruning, "
             "merging keeps the information of the removed tokens and requires no changes to the model weights. "
             "Applied to off-the-shelf models, it doubles the throughput of ViT-L and ViT-H on ImageNet-1k with a "
             "drop of only 0.2-0.3% top-1 accuracy, speeds up video and audio models by 2.2x, and can be combined "
             "with mixed precision for further gains. When applied during training, it reduces the wall-clock "
             "time of MAE fine-tuning by 1.6x.",
             ["Daria Bolek", "Xiao Dai", "Chen-Yu Fang", "Peter Zhang", "Judith Hoffer"], "Accept (poster)")

# P2 ICLR 2019 reject (v1 blind note: authors hidden) -> ICML 2019 accept: new title, ~50 % rewritten
NF_A = rec("nf_iclr19", "iclr-2019", 1_538_000_000_000,
           "Adaptive Gradient Clipping Stabilizes Training of Deep Networks Without Normalization",
           "Batch normalization is a key component of most image classifiers, but it introduces a dependence "
           "between the examples of a batch and behaves differently at training and test time. Networks trained "
           "without normalization are known to become unstable at large learning rates. We propose adaptive "
           "gradient clipping, which clips each gradient based on the ratio between the norm of the gradient "
           "and the norm of the corresponding parameters. With adaptive gradient clipping, residual networks "
           "without normalization can be trained with batch sizes up to 4096 and strong data augmentation. Our "
           "normalizer-free networks match the accuracy of batch-normalized ResNets on ImageNet while being "
           "faster to train.", ANON, "Reject")
NF_B = rec("nf_icml19", "icml-2019", 1_548_000_000_000,
           "High-Performance Large-Scale Image Recognition Without Normalization Layers",
           "Batch normalization is a key component of most image classification models, but its dependence on "
           "the batch size and the interactions it creates between examples have many undesirable effects. "
           "Networks trained without normalization are known to become unstable at large learning rates or "
           "under strong data augmentation. We propose adaptive gradient clipping, which clips each gradient "
           "based on the ratio between the norm of the gradient and the norm of the corresponding parameters, "
           "and we design an improved family of normalizer-free residual networks. Our smaller models match the "
           "test accuracy of an EfficientNet-B7 on ImageNet while being up to 8.7x faster to train, and our "
           "largest models reach a top-1 accuracy of 86.5%.",
           ["Andrew Brock", "Soham Dey", "Sam Smith", "Karen Simon"], "Accept")

# P3 NeurIPS 2023 reject (made public, authors public) -> ICLR 2025 under review (authors hidden: v2)
KV_A = rec("kv_nips23", "neurips-2023", 1_684_000_000_000,
           "Heavy-Hitter Eviction for Memory-Efficient KV Caches in Long-Context Language Model Inference",
           "The key-value cache of autoregressive language models grows linearly with the sequence length and "
           "dominates the memory footprint of long-context inference. We observe that a small set of tokens, "
           "which we call heavy hitters, receives most of the attention mass across decoding steps. Based on "
           "this observation we propose an eviction policy that keeps a fixed budget of recent tokens and heavy "
           "hitters and discards the rest. We formulate cache eviction as a dynamic submodular problem and give "
           "a guarantee for our greedy policy. With a cache of 20% of the tokens, our method keeps the accuracy "
           "of the full cache on language modeling and summarization benchmarks and improves throughput by up "
           "to 3x over a full-cache baseline.", ["Zhen Zhang", "Ying Sheng", "Tianyi Zhou", "Beidi Chan"], "Reject")
KV_B = rec("kv_iclr25", "iclr-2025", 1_727_000_000_000,
           "Keeping the Heavy Hitters: A Budgeted KV Cache Eviction Policy for Efficient LLM Serving",
           "Serving large language models on long inputs is limited by the key-value cache, whose size grows "
           "linearly with the sequence length and the batch size. We observe that a small set of tokens, which "
           "we call heavy hitters, receives most of the attention mass across decoding steps. We propose a "
           "cache eviction policy that keeps a fixed budget of recent tokens and heavy hitters and discards the "
           "rest, and we prove a guarantee for this greedy policy by casting eviction as a dynamic submodular "
           "problem. Across OPT, LLaMA-2 and Mistral models, a cache of 20% of the tokens keeps the quality of "
           "the full cache on twelve long-context tasks, and our implementation raises serving throughput by "
           "up to 29x over widely used inference systems while reducing latency by 1.9x.", (), None)

# P4 ICLR 2024 reject -> ICLR 2025 accept: area keyword changed in the title, abstract grown, an author added
CONF_A = rec("conf_iclr24", "iclr-2024", 1_695_000_000_000,
             "Conformal Prediction Sets for Graph Neural Networks Under Distribution Shift",
             "Uncertainty quantification for graph neural networks is needed before they can be trusted in "
             "high-stakes applications such as drug discovery and fraud detection. Conformal prediction provides "
             "prediction sets with coverage guarantees, but its exchangeability assumption is violated when test "
             "nodes are drawn from a different part of the graph than calibration nodes. We propose a weighted "
             "conformal procedure that reweights calibration nodes by their estimated density ratio with respect "
             "to the test node's neighborhood. We prove that the resulting sets achieve approximate coverage whose "
             "error is bounded by the estimation error of the weights. On eight node classification benchmarks "
             "with structural shift, our method restores the target coverage while keeping prediction sets small.",
             ["Kexin Huang", "Ying Jin", "Emmanuel Candel"], "Reject")
CONF_B = rec("conf_iclr25", "iclr-2025", 1_727_100_000_000,
             "Neighborhood-Weighted Conformal Prediction for Node Classification with Coverage Guarantees",
             "Graph neural networks are increasingly used in high-stakes applications, yet their predictions "
             "come without reliable uncertainty estimates. Conformal prediction provides prediction sets with "
             "coverage guarantees, but its exchangeability assumption is violated when test nodes are drawn from "
             "a different part of the graph than calibration nodes. We propose a weighted conformal procedure "
             "that reweights calibration nodes by their estimated density ratio with respect to the test node's "
             "neighborhood, computed from a shift-aware node embedding. Our analysis bounds the coverage gap by "
             "the total variation error of the estimated weights and shows that the bound is tight. Experiments "
             "on eleven node classification datasets, including two new benchmarks with temporal and geographic "
             "shift, show that our method attains the target coverage where existing graph conformal methods "
             "under-cover by up to 15 points, while producing prediction sets of comparable size. We also extend "
             "the procedure to link prediction.",
             ["Ying Jin", "Kexin Huang", "Jure Lesko", "Emmanuel Candel"], "Accept (Poster)")

# P5 ICLR 2022 reject -> NeurIPS 2022 accept: a title with no content word in common, ~35 % rewritten
INV_A = rec("inv_iclr22", "iclr-2022", 1_632_000_000_000,
            "Why Do Self-Supervised Models Transfer? A Study of Invariances",
            "Self-supervised learning methods learn representations that are invariant to a set of data "
            "augmentations, yet it is unclear which of these invariances are useful for downstream tasks. We "
            "study this question for contrastive models trained on ImageNet with different augmentation "
            "pipelines. We measure the invariance of each model to fourteen transformations and correlate it "
            "with transfer performance on twelve downstream datasets. We find that invariance to color "
            "transformations helps object recognition but hurts fine-grained tasks such as flower "
            "classification, and that no single set of augmentations is best for all tasks. Based on these "
            "findings, we propose to combine representations trained with different augmentations, which "
            "improves transfer on average.", ["Linus Ericsson", "Henry Gouk", "Timothy Hospedales"], "Reject")
INV_B = rec("inv_nips22", "neurips-2022", 1_652_000_000_000,
            "Augmentation Invariances Predict Downstream Performance of Contrastive Representations",
            "Contrastive learning methods learn representations that are invariant to a set of data "
            "augmentations, yet it is unclear which of these invariances are useful for downstream tasks. We "
            "measure the invariance of fourteen contrastive and supervised models to fourteen transformations "
            "and correlate it with transfer performance on sixteen downstream datasets, including detection and "
            "few-shot tasks. We find that invariance to color transformations helps object recognition but hurts "
            "fine-grained tasks such as flower classification, and that no single set of augmentations is best "
            "for all tasks. Invariance measured on ImageNet predicts the ranking of models on a new task better "
            "than ImageNet accuracy does. Based on these findings, we propose to combine representations trained "
            "with different augmentations, which improves transfer on average by 2.1 points.",
            ["Linus Ericsson", "Henry Gouk", "Timothy Hospedales"], "Accept")

# P6 ICLR 2020 reject (v1 blind, authors hidden) -> ICLR 2021 accept: ~60 % paraphrased
PEV_A = rec("pev_iclr20", "iclr-2020", 1_569_000_000_000,
            "Learning Robust Policies from Offline Data with Pessimistic Value Ensembles",
            "Offline reinforcement learning aims to learn a policy from a fixed dataset without interacting with "
            "the environment. Standard off-policy methods fail in this setting because the learned value "
            "function overestimates the return of actions that are not covered by the data. We train an ensemble "
            "of value functions and penalize the policy by the standard deviation of the ensemble's predictions, "
            "which is large for out-of-distribution actions. This penalty requires no explicit model of the "
            "behavior policy. On the D4RL benchmark our method outperforms prior offline methods on 9 of 12 "
            "locomotion datasets.", ANON, "Reject")
PEV_B = rec("pev_iclr21", "iclr-2021", 1_601_000_000_000,
            "Pessimistic Value Ensembles for Offline Reinforcement Learning",
            "Learning a policy from a fixed dataset of transitions, without further interaction, is hard because "
            "off-policy value estimates are overly optimistic for actions the data does not cover. We show that "
            "the disagreement of an ensemble of Q-functions is a reliable signal of such actions and use its "
            "standard deviation as a pessimistic penalty on the policy's objective, with no model of the "
            "behavior policy. We further prove that the penalized value is a lower bound on the true value with "
            "high probability for linear function classes. On the D4RL benchmark our method outperforms prior "
            "offline methods on 10 of 12 locomotion datasets and on the AntMaze tasks, and an ensemble of 10 "
            "Q-functions suffices.", ["Chenjia Bai", "Lingxiao Wang", "Zhuoran Yang", "Zhaoran Wang"], "Accept (Poster)")

SAME_PAPER = [(TOME_A, TOME_B), (NF_A, NF_B), (KV_A, KV_B), (CONF_A, CONF_B), (INV_A, INV_B), (PEV_A, PEV_B)]

# N1 a different group, same problem, the area's stock opening sentence, the same keywords (vs KV_A/KV_B)
KVQ = rec("kvq_iclr24", "iclr-2024", 1_695_500_000_000,
          "Per-Channel Key Quantization for Memory-Efficient KV Caches in Long-Context Inference",
          "The key-value cache of autoregressive language models grows linearly with the sequence length and "
          "dominates the memory footprint of long-context inference. Rather than evicting tokens, we compress "
          "every cached key and value to two bits. We find that keys have outlier channels while values do not, "
          "and therefore quantize keys per channel and values per token. Our tuning-free method reduces the "
          "memory of the cache by 2.6x on LLaMA and Mistral models with almost no loss on long-context "
          "benchmarks, allowing batch sizes up to four times larger and improving throughput by up to 3.5x.",
          ["Zirui Liu", "Jiayi Yuan", "Hongye Jin", "Xia Hu"], "Reject")
# N2 the same group's follow-up (two of three authors, the problem sentence reused) (vs CONF_A/CONF_B)
CONF_LINK = rec("conflink_nips24", "neurips-2024", 1_715_000_000_000,
                "Conformalized Link Prediction on Graphs with Coverage Guarantees",
                "Link prediction models are used to recommend items and to propose new interactions between "
                "molecules, but they rarely quantify the uncertainty of their predictions. Conformal prediction "
                "provides prediction sets with coverage guarantees, but its exchangeability assumption is "
                "violated for edges, since the calibration and test edges share nodes. We propose a conformal "
                "procedure for link prediction that calibrates on edges sampled to match the degree distribution "
                "of the test edges, and we prove a coverage guarantee under a graph exchangeability condition. "
                "On six link prediction benchmarks our prediction sets attain the target coverage and are smaller "
                "than those of split conformal prediction.", ["Kexin Huang", "Ying Jin", "Maria Brbic"], "Accept")
# N3 same method family, different group (vs PEV_A/PEV_B)
EDAC = rec("edac_nips21", "neurips-2021", 1_621_000_000_000,
           "Diversified Q-Ensembles for Uncertainty-Based Offline Reinforcement Learning",
           "Offline reinforcement learning aims to learn a policy from a fixed dataset without interacting with "
           "the environment, but the value estimates of out-of-distribution actions are overestimated. We show "
           "that clipped Q-learning with a large ensemble of Q-functions already penalizes such actions by the "
           "ensemble's uncertainty, and that the number of Q-functions needed can be reduced by diversifying "
           "their gradients. Our method outperforms prior offline methods on most D4RL locomotion datasets with "
           "far fewer ensemble members.", ["Gaon An", "Seungyong Moon", "Jang-Hyun Kim", "Hyun Oh Song"], "Accept")
# N4 the same group applies its method to another model (two authors shared, the method's sentence reused)
TOME_SD = rec("tomesd_iclr24", "iclr-2024", 1_695_600_000_000, "Token Merging for Fast Stable Diffusion",
              "Text-to-image diffusion models generate high-quality images but are slow because the transformer "
              "blocks of the denoising network process thousands of tokens at every step. We apply token merging, "
              "a training-free method that gradually merges similar tokens between transformer blocks, to the "
              "denoising network of Stable Diffusion. With changes tailored to image generation, such as unmerging "
              "tokens before each output and choosing merge partners at random, merging reduces the number of "
              "tokens by up to 60% while keeping image quality. Our method speeds up generation by up to 2x and "
              "reduces memory by up to 5.6x, and it stacks with efficient attention implementations.",
              ["Daria Bolek", "Judith Hoffer"], "Reject")
# N5 two blind ICLR submissions without abstract (not in the records), with near-identical generic titles,
# both showing API v1's "Anonymous": nothing says they are one paper
ANON_GEN_A = rec("gen_iclr18", "iclr-2018", 1_506_000_000_000,
                 "Understanding the Generalization of Deep Neural Networks", "", ANON, "Reject")
ANON_GEN_B = rec("gen_iclr19", "iclr-2019", 1_538_100_000_000,
                 "Towards Understanding the Generalization of Deep Neural Networks", "", ANON, "Reject")

DIFFERENT = [(KVQ, KV_A), (KVQ, KV_B), (CONF_LINK, CONF_A), (CONF_LINK, CONF_B), (EDAC, PEV_A), (EDAC, PEV_B),
             (TOME_SD, TOME_A), (TOME_SD, TOME_B), (ANON_GEN_A, ANON_GEN_B)]

"""Choice scales of the venues' reply forms, worded as each venue's form words them (the leading
number is the score the platform parses)."""

ICLR24_RATING = (
    "1: strong reject", "3: reject, not good enough", "5: marginally below the acceptance threshold",
    "6: marginally above the acceptance threshold", "8: accept, good paper",
    "10: strong accept, should be highlighted at the conference",
)
SPC = ("1 poor", "2 fair", "3 good", "4 excellent")
ICLR24_CONF = (
    "2: You are willing to defend your assessment, but it is quite likely that you did not understand the central parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "3: You are fairly confident in your assessment. It is possible that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "4: You are confident in your assessment, but not absolutely certain. It is unlikely, but not impossible, that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work.",
    "5: You are absolutely certain about your assessment. You are very familiar with the related work and checked the math/other key details carefully.",
)

CONF5 = (
    "2: You are willing to defend your assessment, but it is quite likely that you did not understand the central parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "3: You are fairly confident in your assessment. It is possible that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work. Math/other details were not carefully checked.",
    "4: You are confident in your assessment, but not absolutely certain. It is unlikely, but not impossible, that you did not understand some parts of the submission or that you are unfamiliar with some pieces of related work.",
    "5: You are absolutely certain about your assessment. You are very familiar with the related work and checked the math/other key details carefully.",
)
RATING10 = (
    "3: Clear rejection", "4: Ok but not good enough - rejection", "5: Marginally below acceptance threshold",
    "6: Marginally above acceptance threshold", "7: Good paper, accept", "8: Top 50% of accepted papers, clear accept",
)
ICLR22_REC = ("1: strong reject", "3: reject, not good enough", "5: marginally below the acceptance threshold",
               "6: marginally above the acceptance threshold", "8: accept, good paper",
               "10: strong accept, should be highlighted at the conference")
NEURIPS23_RATING = (
    "3: Reject: For instance, a paper with technical flaws, weak evaluation, inadequate reproducibility and incompletely addressed ethical considerations.",
    "4: Borderline reject: Technically solid paper where reasons to reject, e.g., limited evaluation, outweigh reasons to accept, e.g., good evaluation. Please use sparingly.",
    "5: Borderline accept: Technically solid paper where reasons to accept outweigh reasons to reject, e.g., limited evaluation. Please use sparingly.",
    "6: Weak Accept: Technically solid, moderate-to-high impact paper, with no major concerns with respect to evaluation, resources, reproducibility, ethical considerations.",
    "7: Accept: Technically solid paper, with high impact on at least one sub-area, or moderate-to-high impact on more than one areas, with good-to-excellent evaluation, resources, reproducibility, and no unaddressed ethical considerations.",
    "8: Strong Accept: Technically strong paper with, with novel ideas, excellent impact on at least one area, or high-to-excellent impact on multiple areas, with excellent evaluation, resources, and reproducibility, and no unaddressed ethical considerations.",
)
CORL_REC = ("Strong reject", "Weak reject", "Weak accept", "Strong accept")
CORL_QUAL = ("Poor", "Fair", "Good", "Excellent")
EMNLP_SOUND = ("2: Borderline: Some of the main claims/arguments are not sufficiently supported, there are major technical/methodological problems",
                "3: Good: This study provides sufficient support for its major claims/arguments, some minor points may need extra support or details.",
                "4: Strong: This study provides sufficient support for all of its claims/arguments. ")
EMNLP_EXC = ("2: Mediocre: This paper makes marginal contributions (vs non-contemporaneous work), so I would rather not see it in the conference.",
              "3: Ambivalent: It has merits (e.g., it reports state-of-the-art results, the idea is nice), but there are key weaknesses (e.g., it describes incremental work), and it can significantly benefit from another round of revision. However, I won't object to accepting it if my co-reviewers champion it.",
              "4: Strong: This paper deepens the understanding of some phenomenon or lowers the barriers to an existing research direction.")
EMNLP_REPRO = ("3: Could reproduce the results with some difficulty. The settings of parameters are underspecified or subjectively determined; the training/evaluation data are not widely available.",
                "4: Could mostly reproduce the results, but there may be some variation because of sample variance or minor variations in their interpretation of the protocol or method.")
EMNLP_CONF = ("2: Willing to defend my evaluation, but it is fairly likely that I missed some details, didn't understand some central points, or can't be sure about the novelty of the work.",
               "3: Pretty sure, but there's a chance I missed something. Although I have a good feel for this area in general, I did not carefully check the paper's details, e.g., the math, experimental design, or novelty.",
               "4: Quite sure. I tried to check the important points carefully. It's unlikely, though conceivable, that I missed something that should affect my ratings.")
COLM_RATING = ("3: Clear rejection", "4: Ok but not good enough - rejection", "5: Marginally below acceptance threshold",
                "6: Marginally above acceptance threshold", "7: Good paper, accept", "8: Top 50% of accepted papers, clear accept")

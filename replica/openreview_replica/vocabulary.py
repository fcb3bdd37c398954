"""Words generated fixtures are made of: people's names and paper-title words."""

FIRST = ["Alice", "Bo", "Carla", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kavya", "Lena",
         "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yara"]
LAST = ["Abbott", "Berg", "Castro", "Dubois", "Engel", "Fischer", "Garcia", "Huang", "Ivanova", "Jensen",
        "Kim", "Larsen", "Moreau", "Nakamura", "Okafor", "Petrov", "Rossi", "Silva", "Tanaka", "Weber"]
TOPIC = ["Sparse", "Robust", "Scalable", "Contrastive", "Implicit", "Causal", "Efficient", "Provable",
         "Adaptive", "Hierarchical", "Equivariant", "Federated", "Latent", "Diffusion-Based", "Self-Supervised"]
THING = ["Attention", "Representation Learning", "Policy Optimization", "Graph Networks", "Language Models",
         "Vision Transformers", "Kernel Methods", "Generative Models", "Meta-Learning", "Optimizers",
         "Reward Models", "Neural Fields", "State Space Models", "Mixture of Experts"]

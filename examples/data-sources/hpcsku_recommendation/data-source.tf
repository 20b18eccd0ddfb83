# Describe the workload; the data source derives the requirements (GPU memory,
# nodes, interconnect), removes the sizes that cannot run it and ranks the rest.
# The results depend on the provider's `as_of` date: pin it (see the provider
# example) so that plans are reproducible.

# Full fine-tuning of a 7B model in bf16 on an AKS GPU node pool. The memory
# model asks for about 130 GiB of GPU memory (16 bytes per parameter plus 25%
# activation headroom), which one VM holds (two 80 GB GPUs, for example): no
# InfiniBand, and the AKS taints, labels and GPU driver setting to go with it.
data "hpcsku_recommendation" "fine_tune_7b" {
  workload = "fine_tuning"
  model = {
    parameters_billion = 7
    precision          = "bf16"
  }
  target = "aks"
  region = "eastus"
}

# Fine-tune Llama 3.1 70B with QLoRA on AKS. By name, the model table supplies
# the architecture: a 4-bit NF4 base (36.8 GiB), adapters with their optimizer
# states (7.88 GiB) and the activations of one 4,096-token sequence (8.02 GiB)
# make 52.7 GiB, which one 80 GB GPU holds: a single-GPU VM, no InfiniBand.
data "hpcsku_recommendation" "qlora_70b" {
  workload           = "fine_tuning"
  model              = { name = "llama-3.1-70b" }
  fine_tuning_method = "qlora"
  target             = "aks"
  region             = "eastus"
}

# A chat service on Llama 3.1 8B: 32 conversations in flight, each up to 8,192
# tokens. The KV cache is 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 128 KiB
# per token, 32 GiB for the service, on top of 15 GiB of weights; a serving
# engine takes 90% of each GPU. A 16 GB GPU cannot hold it. When one VM cannot
# hold every conversation, the recommendation adds copies (`replicas`) on more
# VMs; `tensor_parallel_size` is what to pass to vLLM.
data "hpcsku_recommendation" "chat_8b" {
  workload            = "inference"
  model               = { name = "llama-3.1-8b" }
  context_tokens      = 8192
  concurrent_requests = 32
  target              = "aks"
  region              = "eastus"
}

# Serve OPT-1.3B (published in fp16) in West US 2 for at most 1 USD per
# VM-hour. A small job: single-GPU NC sizes rank first and 8-GPU ND sizes near
# the bottom, and each VM needs system RAM of 150% of the weights. Inference
# tolerates evictions, so price it on spot: prices, and the cap, then use the
# catalog's spot estimates where it has them.
data "hpcsku_recommendation" "serve_opt_1_3b" {
  workload = "inference"
  model = {
    parameters_billion = 1.3
    precision          = "fp16"
  }
  region             = "westus2"
  max_price_per_hour = 1
  spot               = true
  max_results        = 3
}

# Pretrain a 70B model in bf16 with a CUDA software stack. No NVIDIA VM holds
# the ~1,059 GiB the job needs within its usable memory, so it spans several
# VMs and `interconnect = "auto"` requires InfiniBand: ND sizes in one
# placement group. Without
# `tokens_billion` the throughput model assumes 20 tokens per parameter and
# scales each size out to finish within the default 720 hours where it can.
data "hpcsku_recommendation" "train_70b" {
  workload = "training"
  model = {
    parameters_billion = 70
  }
  gpu_vendor         = "nvidia"
  region             = "eastus"
  min_local_disk_gib = 2000 # local scratch for checkpoints
}

# Tightly coupled MPI CFD on 2,000 cores, scheduled by Slurm on Azure
# CycleCloud. `nodes` is computed from the cores per VM; the deployment hints
# name the Slurm partition, its machine type and its node limits.
data "hpcsku_recommendation" "cfd" {
  workload = "hpc"
  cores    = 2000
  target   = "cyclecloud"
  region   = "eastus"
}

# Pretrain a 7B model on 2 trillion tokens within 2,000 hours (about 12 weeks).
# The throughput model turns the tokens into training FLOPs (6 x 7B x 2,000B =
# 8.4e22) and scales each size out to the VMs that finish by the deadline;
# sizes that cannot are removed. Sizes are ranked on the job's cost and time,
# not on the hourly price.
data "hpcsku_recommendation" "pretrain_7b" {
  workload = "training"
  model = {
    parameters_billion = 7
  }
  tokens_billion = 2000
  deadline_hours = 2000
  region         = "eastus"
}

# Vision, diffusion and speech training is timed by samples: ViT-Large in
# bf16, 256 images per GPU, on 115 million samples (ImageNet-1k x 90 epochs;
# the default for a vision model). Training FLOPs = 3 x 123.1 GFLOPs forward
# x samples; each estimate gives job_hours, job_cost_usd and
# samples_per_second. A diffusion or speech model needs samples_million; a
# model outside the table also model.forward_gflops (with class =
# "nongenerative"): without them its sizes rank by FLOP/s per USD, with a
# warning.
data "hpcsku_recommendation" "train_vit_large" {
  workload            = "training"
  model               = { name = "vit-large", precision = "bf16" }
  training_batch_size = 256
  samples_million     = 115
  region              = "eastus"
}

data "hpcsku_recommendation" "train_custom_vision" {
  workload = "training"
  model = {
    parameters_billion = 0.3
    precision          = "bf16"
    class              = "nongenerative"
    forward_gflops     = 120
  }
  samples_million = 50
  deadline_hours  = 48
}

# A chat service stated the way serving engineers state one: its load and its
# latency targets. 50 requests per second of 1,000-token prompts and 200-token
# answers (10,000 output tokens per second), the first token within 500 ms and
# one every 30 ms after it, two replicas on separate VMs. Each size gets the
# batch per copy its targets allow and the copies that carry the load at no
# more than 90% of their capacity; the requests in flight are derived from the
# load (requirements.concurrent_requests), and each estimate's latencies are at
# the load, the first token with its wait for a copy.
data "hpcsku_recommendation" "chat_8b_by_load" {
  workload                     = "inference"
  model                        = { name = "llama-3.1-8b" }
  prompt_tokens                = 1000
  output_tokens                = 200
  requests_per_second          = 50
  max_time_to_first_token_ms   = 500
  max_time_per_output_token_ms = 30
  min_replicas                 = 2
  region                       = "eastus"
}

# A small model (0.5B parameters, class "small") served on CPU sizes: one copy
# on each VM, and as many VMs as two replicas, 2,000 output tokens per second
# and a 50 ms per-token target need. The F series publish no STREAM figure; the
# catalog derives one from the host's memory system, and the size record says
# so (`performance.cpu.stream_derived`).
data "hpcsku_recommendation" "small_on_cpu" {
  workload = "inference"
  model = {
    parameters_billion = 0.5
    class              = "small"
  }
  prompt_tokens                = 200
  output_tokens                = 100
  tokens_per_second            = 2000
  min_replicas                 = 2
  max_time_per_output_token_ms = 50
  region                       = "eastus"
}

# A CFD solver bound by memory bandwidth on 2,000 cores: sizes are compared on
# the bandwidth the job's cores draw from each VM's STREAM, times the parallel
# efficiency on that many VMs, and its price.
# `memory_bandwidth` is the default for `hpc`; `compute` compares FP64 peak.
data "hpcsku_recommendation" "cfd_bandwidth" {
  workload  = "hpc"
  cores     = 2000
  hpc_bound = "memory_bandwidth"
  region    = "eastus"
}

# A CFD solver licensed per core, measured at 6.5 hours on four 64-core HBv3
# VMs: every layout gets job hours and cost (VMs plus licences), and fewer,
# faster cores win where the licence outweighs the VM.
data "hpcsku_recommendation" "licensed_cfd" {
  workload                   = "hpc"
  cores                      = 256
  region                     = "eastus"
  license_cost_per_core_hour = 0.6
  reference_run = {
    vm_size = "Standard_HB120-64rs_v3"
    nodes   = 4
    hours   = 6.5
  }
}

# A solver that needs 1,100 GiB on one node: memory never adds up across VMs,
# and the fewest VMs that hold the job win.
data "hpcsku_recommendation" "in_memory_solver" {
  workload       = "hpc"
  hpc_bound      = "memory_capacity"
  min_memory_gib = 1100
  cores          = 72
  region         = "eastus"
}

# GPU dataframes and ETL with RAPIDS built against CUDA 12.0: NVIDIA GPUs of
# compute capability 7.0 or newer that CUDA 12.0 supports.
data "hpcsku_recommendation" "rapids_etl" {
  workload     = "data_processing"
  cuda_version = "12.0"
  region       = "eastus"
}

# Remote visualization workstations: the NV family, newest generations first.
data "hpcsku_recommendation" "visualization" {
  workload     = "visualization"
  region       = "westeurope"
  optimize_for = "cost"
}

# An AKS node pool already runs Standard_NC96ads_A100_v4 for this job. Naming
# it in `prefer` keeps it at rank 1 (and `vm_size` unchanged) as long as it
# meets every requirement, so a provider upgrade with a new catalog does not
# make Terraform replace the pool. A warning names a clearly better size.
data "hpcsku_recommendation" "existing_pool" {
  workload = "fine_tuning"
  model = {
    parameters_billion = 7
  }
  target = "aks"
  region = "eastus"
  prefer = ["Standard_NC96ads_A100_v4"]
}

# The top pick of each workload, ready for `size`, `sku` or `vm_size`.
output "vm_sizes" {
  value = {
    fine_tune_7b   = data.hpcsku_recommendation.fine_tune_7b.vm_size
    qlora_70b      = data.hpcsku_recommendation.qlora_70b.vm_size
    chat_8b        = data.hpcsku_recommendation.chat_8b.vm_size
    serve_opt_1_3b = data.hpcsku_recommendation.serve_opt_1_3b.vm_size
    train_70b      = data.hpcsku_recommendation.train_70b.vm_size
    cfd            = data.hpcsku_recommendation.cfd.vm_size
    rapids_etl     = data.hpcsku_recommendation.rapids_etl.vm_size
    visualization  = data.hpcsku_recommendation.visualization.vm_size
    existing_pool  = data.hpcsku_recommendation.existing_pool.vm_size
    pretrain_7b    = data.hpcsku_recommendation.pretrain_7b.vm_size
    chat_8b_load   = data.hpcsku_recommendation.chat_8b_by_load.vm_size
    cfd_bandwidth  = data.hpcsku_recommendation.cfd_bandwidth.vm_size
  }
}

# The ranked list for the 70B training job, with the reasons and warnings of
# each size.
output "train_70b_ranking" {
  value = [
    for r in data.hpcsku_recommendation.train_70b.recommendations : {
      rank         = r.rank
      vm_size      = r.vm_size
      score        = r.score
      nodes        = r.nodes
      usd_per_hour = r.total_price_per_hour
      infiniband   = r.deployment.rdma
      reasons      = r.reasons
      warnings     = r.warnings
    }
  ]
}

# How the chat service is laid out: copies of the model, the GPUs each copy is
# split over, and the KV cache the estimate reserved.
output "chat_8b_serving" {
  value = {
    replicas             = data.hpcsku_recommendation.chat_8b.recommendations[0].replicas
    tensor_parallel_size = data.hpcsku_recommendation.chat_8b.recommendations[0].tensor_parallel_size
    kv_cache_gib         = data.hpcsku_recommendation.chat_8b.requirements.kv_cache_gib
    kv_bytes_per_token   = data.hpcsku_recommendation.chat_8b.requirements.kv_bytes_per_token
  }
}

# How the GPU memory requirement was derived.
output "train_70b_memory" {
  value = data.hpcsku_recommendation.train_70b.requirements.memory.formula
}

# How many sizes each hard constraint removed, with a few examples.
output "fine_tune_7b_rejected" {
  value = {
    for r in data.hpcsku_recommendation.fine_tune_7b.rejected :
    r.constraint => "${r.count} removed (e.g. ${join(", ", r.examples)})"
  }
}

# AKS node pool settings for the fine-tuning job.
output "fine_tune_7b_aks" {
  value = data.hpcsku_recommendation.fine_tune_7b.recommendations[0].deployment.aks
}

# Slurm partition settings for the CFD job, and how many VMs it needs.
output "cfd_cluster" {
  value = {
    nodes      = data.hpcsku_recommendation.cfd.recommendations[0].nodes
    cyclecloud = data.hpcsku_recommendation.cfd.recommendations[0].deployment.cyclecloud
  }
}

# The pretraining job's work and its time and cost on the recommended layout.
output "pretrain_7b_estimate" {
  value = {
    nodes                   = data.hpcsku_recommendation.pretrain_7b.recommendations[0].nodes
    job_hours               = data.hpcsku_recommendation.pretrain_7b.recommendations[0].estimate.job_hours
    job_cost_usd            = data.hpcsku_recommendation.pretrain_7b.recommendations[0].estimate.job_cost_usd
    tokens_per_second       = data.hpcsku_recommendation.pretrain_7b.recommendations[0].estimate.tokens_per_second
    cost_per_million_tokens = data.hpcsku_recommendation.pretrain_7b.recommendations[0].estimate.cost_per_million_tokens
    mfu                     = data.hpcsku_recommendation.pretrain_7b.recommendations[0].estimate.efficiency
    assumptions             = data.hpcsku_recommendation.pretrain_7b.recommendations[0].estimate.assumptions
    training_flops          = data.hpcsku_recommendation.pretrain_7b.requirements.training_flops
    training_tokens_billion = data.hpcsku_recommendation.pretrain_7b.requirements.training_tokens_billion
    token_budget            = data.hpcsku_recommendation.pretrain_7b.requirements.token_budget
    deadline_hours          = data.hpcsku_recommendation.pretrain_7b.requirements.deadline_hours
  }
}

# The service sized for its load: copies of the model, the batch each decodes
# at most (vLLM's --max-num-seqs), the capacity, the latencies at the load,
# the requests in flight there and the price of a million output tokens.
output "chat_8b_by_load" {
  value = {
    replicas                 = data.hpcsku_recommendation.chat_8b_by_load.recommendations[0].replicas
    sequences_per_copy       = data.hpcsku_recommendation.chat_8b_by_load.recommendations[0].estimate.sequences_per_copy
    capacity_tokens_per_sec  = data.hpcsku_recommendation.chat_8b_by_load.recommendations[0].estimate.tokens_per_second
    time_to_first_token_ms   = data.hpcsku_recommendation.chat_8b_by_load.recommendations[0].estimate.time_to_first_token_ms
    time_per_output_token_ms = data.hpcsku_recommendation.chat_8b_by_load.recommendations[0].estimate.time_per_output_token_ms
    requests_in_flight       = data.hpcsku_recommendation.chat_8b_by_load.requirements.concurrent_requests
    cost_per_million_tokens  = data.hpcsku_recommendation.chat_8b_by_load.recommendations[0].estimate.cost_per_million_tokens
  }
}

# Each CFD layout's bandwidth relative to the best one of the request.
output "cfd_bandwidth" {
  value = [
    for r in data.hpcsku_recommendation.cfd_bandwidth.recommendations : {
      vm_size             = r.vm_size
      nodes               = r.nodes
      usd_per_hour        = r.total_price_per_hour
      relative_throughput = r.estimate.relative_throughput
      efficiency          = r.estimate.efficiency
    }
  ]
}

# Each recommendation carries a summary of its size (`sku.name`, `sku.gpu`,
# `sku.network`, `sku.lifecycle`, ...). The full record of the top pick, with
# its performance figures and their sources, support notes, image and prices,
# is one lookup away; it stays out of the recommendation's state.
data "hpcsku_sku" "fine_tune_7b_top" {
  name   = data.hpcsku_recommendation.fine_tune_7b.vm_size
  region = "eastus"
}

output "fine_tune_7b_top_pick" {
  value = {
    gpu          = data.hpcsku_recommendation.fine_tune_7b.recommendations[0].sku.gpu.model
    bf16_tflops  = data.hpcsku_sku.fine_tune_7b_top.sku.performance.gpu.bf16_tflops
    bf16_sources = data.hpcsku_sku.fine_tune_7b_top.sku.performance.gpu.sources["bf16_tflops"]
    aks_support  = data.hpcsku_sku.fine_tune_7b_top.sku.support.aks.status
    image_urn    = data.hpcsku_sku.fine_tune_7b_top.sku.image.urn
    price_per_vm = data.hpcsku_sku.fine_tune_7b_top.sku.price.usd_per_hour
  }
}

# `full_records = true` puts the full record of every ranked size in
# `sku_records`, keyed by size name, for the few configurations that need them
# all (an audit); it multiplies the state the data source writes.
data "hpcsku_recommendation" "audit" {
  workload     = "hpc"
  cores        = 512
  region       = "eastus"
  full_records = true
}

output "audit_stream_gbs" {
  value = {
    for name, record in data.hpcsku_recommendation.audit.sku_records : name => record.performance.cpu.stream_gbs
  }
}

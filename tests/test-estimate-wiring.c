/* test-estimate-wiring.c — the estimator's communication on the fabric each part's wiring gives
 *
 * Tensor-parallel and data-parallel traffic against values worked out by hand in the comments from
 * each part's topology in the built-in catalog: the scale-up domain, its bandwidth per direction,
 * the host link beyond it and the scale-out network.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-estimate-json.h"
#include "suanli-plan-hardware.h"
#include "suanli-plan-inputs.h"
#include "suanli-test-estimate.h"

/* Communication, by hand. 1e9 parameters (no architecture), 16 H100s on 2 nodes, all data parallel:
 * the ring crosses nodes, so it runs on the assumed InfiniBand NDR, 50 GB/s × 0.75 efficiency:
 *   all-reduce of 2 × 1e9 gradient bytes = 2 × 15/16 × 2e9 / 37.5e9 + 10 µs = 0.10001 s; ZeRO-3
 *   all-gathers the weights twice and reduce-scatters the gradients, 15/16 × 3 × 2e9 / 37.5e9 + 3 × 10 µs
 *   = 0.15003 s
 *   compute = 6 × 1e9 × 256 × 2048 / (16 × 989e12 × 0.45) = 0.4417660937 s, whose backward two thirds
 *   hide the all-reduce: nothing exposed.
 * Tensor parallel, 2 layers, h 1024, s 2048, t 2 inside one node on NVLink (450 GB/s × 0.75), 8
 * micro-batches: 4 all-reduces per layer of 2048 × 1024 × 2 B, each 2 × 1/2 × 4,194,304 / 337.5e9
 * + 10 µs, × 4 × 2 layers × 8 = 1.435364314 ms. */
static void
test_communication (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;

  for (int zero = 0; zero <= 3; zero += 3)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"model\": {\"parameters\": 1e9}, \"workload\": {\"seq_len\": 2048, \"global_batch\": 256},"
        " \"parallelism\": {\"zero_stage\": %d},"
        " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8, \"nodes\": 2},"
        " \"assumptions\": {\"compute_efficiency\": 0.45}}", zero);

      suanli_test_estimate_valid (json, &in, &e);
      assert_close (e.data_parallel_s, zero == 3 ? 0.150030 : 0.100010);
      assert_close (e.compute_s, 0.4417660936973);
      g_assert_cmpfloat (e.exposed_communication_s, ==, 0);
    }

  suanli_test_estimate_valid ("{\"model\": {\"parameters\": 3e7, \"layers\": 2, \"hidden\": 1024, \"heads\": 16, \"vocab\": 32000},"
                  " \"workload\": {\"seq_len\": 2048, \"global_batch\": 8},"
                  " \"parallelism\": {\"tensor\": 2},"
                  " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 2}}", &in, &e);
  assert_close (e.tensor_parallel_s, 1.435364314074e-03);
  /* Tensor-parallel traffic is on the critical path: all of it is exposed. */
  assert_close (e.exposed_communication_s, 1.435364314074e-03);
}

/* Tensor parallelism of 8 on five parts, each costed on the fabric its wiring gives (the catalog's
 * "Topology"). Llama 2 70B (80 layers, hidden 8192), sequence 4096, micro-batch 1, global batch 8
 * on 8 GPUs of one node: m = 8 micro-batches, each layer 4 all-reduces (2 forward, 2 backward) of
 * the activations, S = 1 × 4096 × 8192 × 2 B = 67,108,864 B. A ring all-reduce over 8 ranks moves
 * 2 × 7/8 × S = 117,440,512 B per GPU each way; at 75 % of the fabric, plus 10 µs per call, and
 * 8 × 80 × 4 = 2,560 calls a step:
 *   Ascend 910B, eight cards in a full HCCS mesh (domain 8), 7 links × 28 GB/s = 196 GB/s:
 *     117,440,512 / 147e9 + 10 µs = 808.915 µs; × 2,560 = 2.070822522 s
 *     (one 28 GB/s link, as the catalog had it, would be 7 times that)
 *   A100 SXM, HGX board (domain 8), NVLink 3, 12 links = 300 GB/s:
 *     117,440,512 / 225e9 + 10 µs = 531.958 µs; × 2,560 = 1.361812048 s
 *   H200 SXM, HGX board (domain 8), NVLink 4, 18 links = 450 GB/s:
 *     117,440,512 / 337.5e9 + 10 µs = 357.972 µs; × 2,560 = 0.9164080318 s
 *   H200 NVL, 4-way bridge (domain 4 < 8): the ring crosses PCIe 5.0 x16, 63 GB/s:
 *     117,440,512 / 47.25e9 + 10 µs = 2,495.513 µs; × 2,560 = 6.388514513 s
 *   H100 PCIe, 2-way bridge (domain 2 < 8): the same PCIe 5.0 x16, 6.388514513 s. */
static void
test_topology_tensor_parallel (void)
{
  static const struct {
    const char *accelerator;
    double      tensor_parallel_s;
    gboolean    crosses_host_link;
  } parts[] = {
    { "huawei-ascend-910b", 2.070822521904762, FALSE },
    { "nvidia-a100-80gb-sxm", 1.3618120476444444, FALSE },
    { "nvidia-h200-sxm", 0.916408031762963, FALSE },
    { "nvidia-h200-nvl", 6.388514512592592, TRUE },
    { "nvidia-h100-pcie", 6.388514512592592, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"seq_len\": 4096, \"global_batch\": 8,"
        " \"micro_batch\": 1, \"tokens\": 1e12}, \"parallelism\": {\"tensor\": 8},"
        " \"assumptions\": {\"comm_efficiency\": 0.75},"
        " \"system\": {\"accelerator\": \"%s\", \"gpus_per_node\": 8, \"nodes\": 1}}", parts[i].accelerator);
      g_autoptr(GError) error = NULL;
      g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "test.suanli-plan", &error);
      g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
      g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
      g_autofree char *explained = NULL;
      gboolean warned = FALSE;
      SuanliPlanInputs in;
      SuanliEstimate e;

      g_assert_no_error (error);
      g_assert_true (suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), &in, errors, warnings));
      suanli_estimate_compute (&in, &e);
      assert_close (e.tensor_parallel_s, parts[i].tensor_parallel_s);

      /* The plan and its explanation say when the group is larger than the scale-up domain. */
      for (guint w = 0; w < warnings->len; w++)
        {
          SuanliPlanIssue *issue = g_ptr_array_index (warnings, w);

          warned |= g_str_equal (issue->field, "parallelism.tensor") && strstr (issue->message, "host link") != NULL;
        }
      g_assert_cmpint (warned, ==, parts[i].crosses_host_link);
      explained = suanli_estimate_explain (&in, &e, "training.communication_s");
      g_assert_nonnull (strstr (explained, parts[i].crosses_host_link ? "slower host link" : "stays within"));
    }
}

/* A plan names a catalog system as its server: its accelerator, its count per node and its wiring.
 * On an Atlas 800T A2 (eight 910Bs in a full HCCS mesh, a 200 GE RoCE port each) the tensor-parallel
 * all-reduces are the 910B's above, 2.070822522 s; the scale-out network is 200 Gb/s = 25 GB/s per
 * NPU. On a CloudMatrix384 (384 910Cs on one Unified Bus) tensor parallelism of 16 stays on the bus,
 * 392 GB/s; on GB200 NVL72 nodes of 4 GPUs (Azure's ND GB200 v6), 16 GPUs across four nodes are
 * still one NVLink domain. */
static void
test_topology_servers (void)
{
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  SuanliPlanInputs in;
  SuanliEstimate e;
  double bandwidth = 0;

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"seq_len\": 4096, \"global_batch\": 8,"
                  " \"micro_batch\": 1, \"tokens\": 1e12}, \"parallelism\": {\"tensor\": 8},"
                  " \"assumptions\": {\"comm_efficiency\": 0.75}, \"system\": {\"server\": \"huawei-atlas-800t-a2\"}}",
                  &in, &e);
  g_assert_cmpstr (in.accelerator_id, ==, "huawei-ascend-910b");
  g_assert_cmpfloat (in.gpus_per_node, ==, 8);
  assert_close (e.tensor_parallel_s, 2.070822521904762);
  g_assert_cmpfloat (in.scale_out_bandwidth, ==, 25e9);

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 1024,"
                  " \"output_tokens\": 256, \"batch\": 1}, \"parallelism\": {\"tensor\": 16},"
                  " \"system\": {\"server\": \"huawei-cloudmatrix-384\", \"gpus_per_node\": 16}}", &in, &e);
  g_assert_cmpint (suanli_plan_hardware_fabric (&in, 16, &bandwidth), ==, SUANLI_FABRIC_SCALE_UP);
  g_assert_cmpfloat (bandwidth, ==, 392e9);

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 1024,"
                  " \"output_tokens\": 256, \"batch\": 1}, \"parallelism\": {\"tensor\": 16},"
                  " \"system\": {\"cloud_instance\": \"azure-nd-gb200-v6\", \"nodes\": 4}}", &in, &e);
  g_assert_cmpint (suanli_plan_hardware_fabric (&in, 16, &bandwidth), ==, SUANLI_FABRIC_SCALE_UP);
  g_assert_cmpfloat (bandwidth, ==, 900e9);

  g_assert_false (suanli_test_resolve ("{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"tokens\": 1e11},"
                           " \"system\": {\"server\": \"nvidia-dgx-h100\", \"cloud_instance\": \"aws-p5-48xlarge\"}}",
                           &in, &e, errors));
  g_assert_cmpstr (((SuanliPlanIssue *) g_ptr_array_index (errors, 0))->field, ==, "system.server");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/estimate/communication", test_communication);
  g_test_add_func ("/estimate/topology-tensor-parallel", test_topology_tensor_parallel);
  g_test_add_func ("/estimate/topology-servers", test_topology_servers);
  return g_test_run ();
}

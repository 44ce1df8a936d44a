// hetvp — the component type `rtl.<name>` of every block built with hetvp_add_rtl_block:
// `mode: rtl` runs the Verilated block through RtlCore, `mode: tlm` its reference model,
// `mode: lockstep` both on the same inputs, comparing register read data, bus transactions,
// memory writes and interrupt edges, each with its cycle (block_lockstep.h); the first divergence
// stops the run (docs/rtl_blocks.md, "Lockstep").
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cinttypes>
#include <stdexcept>
#include <unistd.h>

#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/format.h"
#include "platform/implementation.h"
#include "platform/run_state.h"
#include "rtl/bridges/block_lockstep.h"
#include "rtl/bridges/rtl_block.h"

namespace hetvp::rtl {

namespace {

// The directory a file would be written to exists and is writable.
bool writable_dir(const std::string& file) {
  const size_t slash = file.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
  return access(dir.c_str(), W_OK) == 0;
}

class RtlComponent final : public Component {
 public:
  tlm_utils::simple_target_socket<RtlComponent> regs{"regs"};
  // The AXI4 master's port: only a block built with MASTER axi4 has one (an unbound socket would
  // fail the run at elaboration, and YAML could not bind it).
  std::unique_ptr<tlm_utils::simple_initiator_socket<RtlComponent>> mem;

  // The checks of RtlBlockConfig::validate ran with the configuration's (Config::validate); what
  // needs the file system is checked here, when the block is built.
  RtlComponent(sc_core::sc_module_name n, const RtlBlockConfig& c, const RtlBlockType& t)
      : Component(n), type_(t), mode_(c.mode) {
    initiator_ = instance_name();
    env_.instance = instance_name();
    env_.type = "rtl." + t.name;
    env_.initiator = initiator_.c_str();
    env_.clock.period_ps = Clock::ps(c.clock.period());
    irq_vector_ = c.irq_vector;
    relaxed_ = c.relaxed_rules();
    reset_cycles_ = c.reset_cycles;
    regs.register_b_transport(this, &RtlComponent::b_transport);
    expose_target("regs", regs);
    if (t.master) {
      mem = std::make_unique<tlm_utils::simple_initiator_socket<RtlComponent>>("mem");
      expose_initiator("mem", *mem);
    }
    for (unsigned k = 0; k < t.irqs; ++k) {
      irq_.push_back(std::make_unique<IrqPort>(t.irqs == 1 ? "irq" : format("irq%u", k).c_str()));
      expose_irq_out(t.irqs == 1 ? "irq" : format("irq%u", k), *irq_.back(), true);
    }
    if (!c.waves.empty() && !writable_dir(c.waves))
      throw std::invalid_argument(c.waves.where() + ": cannot write '" + c.waves() + "' (no such directory)");
    if (!c.ring_file.empty() && !writable_dir(c.ring_file))
      throw std::invalid_argument(c.ring_file.where() + ": cannot write '" + c.ring_file() + "' (no such directory)");
    const RtlReferenceType* ref = RtlReferenceRegistry::get().find(t.reference);
    if (mode_ != Implementation::rtl && !ref)
      throw std::logic_error("rtl." + t.name + ": no reference model (RtlBlockConfig::validate checks it)");

    BlockEnv real = env_;  // what reaches the platform
    real.mem = [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { count_and_send(gp, d); };
    real.irq = [this](unsigned k, bool level) { irq_edge(k, level); };
    if (mode_ == Implementation::tlm) {
      ref_ = ref->create("tlm", real);
    } else {
      if (mode_ == Implementation::lockstep) {
        lockstep_ = std::make_unique<BlockLockstep>(
            *this, env_.type + " '" + instance_name() + "'", instance_name(), env_.clock, [this] { core_->write_ring_now(); },
            [this](tlm::tlm_generic_payload& gp) { return mem ? (*mem)->transport_dbg(gp) : 0u; });
        if (c.compare_latency) lockstep_->set_latency_tolerance(c.latency_tolerance);
        real.wrote = [this](uint64_t a, const std::vector<uint8_t>& d, const std::vector<uint8_t>& be) {
          lockstep_->rtl_wrote(core_->cycle(), a, d, be);
        };
        BlockEnv shadow = env_;  // the reference reads the same memory, writes nothing, raises nothing
        shadow.mem = [this](tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { lockstep_->tlm_transport(gp, d); };
        shadow.irq = [this](unsigned k, bool level) { lockstep_->tlm_irq(k, level); };
        ref_ = ref->create("tlm", shadow);
      }
      core_ = std::make_unique<RtlCore>("rtl", t, real, c);
    }
    declare_stats();
  }

  void end_of_run() override {
    if (core_) {
      core_->end_of_run();
      // Not a statistic (the stats are the same in every mode): how much the RTL clock ran.
      run_state().add_summary(
          format("%s: RTL clock ran %" PRIu64 " cycles (%" PRIu64 " after reset), woke %" PRIu64 " times",
                 instance_name().c_str(), core_->counters().cycles, core_->bus_cycles(), core_->counters().wakeups));
      for (const RuleSpec& r : rule_table())
        if (core_->relaxed().breaks(r.rule))
          run_state().add_summary(format("%s: relaxed rule %s broken %" PRIu64 " times", instance_name().c_str(), r.id,
                                         core_->relaxed().breaks(r.rule)));
    }
    if (lockstep_) lockstep_->end_of_run();
  }

 private:
  void declare_stats() {
    stats()
        .counter("reg_reads", "accesses", "register reads", reg_reads_)
        .counter("reg_writes", "accesses", "register writes", reg_writes_)
        .counter("mem_reads", "transactions", "memory reads the block issued (one per AXI4 burst)", mem_reads_)
        .counter("mem_writes", "transactions", "memory writes the block issued", mem_writes_)
        .counter("bytes_read", "bytes", "bytes the block read", bytes_read_)
        .counter("bytes_written", "bytes", "bytes the block wrote", bytes_written_)
        .counter("interrupts", "edges", "rising edges of the block's interrupt outputs", irqs_);
    // mode lockstep: what it compared (the other modes have none of these: compare stats across
    // modes without the lockstep_* counters).
    if (lockstep_) {
      const BlockLockstep::Counts& c = lockstep_->counts();
      stats()
          .counter("lockstep_accesses", "accesses", "register accesses both sides answered", c.accesses)
          .counter("lockstep_reads", "accesses", "register reads whose data was compared", c.reads)
          .counter("lockstep_latencies", "accesses", "response latencies compared (compare_latency)", c.latencies)
          .counter("lockstep_transactions", "transactions", "bus transactions compared", c.transactions)
          .counter("lockstep_writes", "writes", "memory writes compared", c.writes)
          .counter("lockstep_irqs", "edges", "interrupt edges compared", c.irqs)
          .counter("lockstep_divergences", "divergences", "divergences found (the first stops the run)", c.divergences);
    }
    // Each rule of `relax:`: the times the RTL broke it (0 in mode tlm, which has no RTL).
    for (const RuleSpec& r : rule_table())
      if (relaxed_.relaxed(r.rule))
        stats().counter("relaxed_" + stat_name(r.rule), "breaks",
                        std::string("times the RTL broke the relaxed rule ") + r.id,
                        core_ ? core_->relaxed().breaks(r.rule) : relaxed_.breaks(r.rule));
  }

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    sc_core::wait(delay);  // the access is presented to the block at its arrival
    delay = sc_core::SC_ZERO_TIME;
    (gp.is_write() ? reg_writes_ : reg_reads_) += 1;
    if (mode_ == Implementation::tlm) {
      // presented at the next rising edge, and not before the reset is over (as the RTL)
      const uint64_t g = std::max<uint64_t>(env_.clock.next_after(sc_core::sc_time_stamp()), reset_cycles_ + 1);
      ref_->access(gp, g);
      env_.clock.wait_until(g + ref_->response_cycles(gp));
      return;
    }
    if (!lockstep_) {
      core_->access(gp);
      return;
    }
    // lockstep: the reference gets the same access at the same rising edge, in the clock thread
    // (so its interrupts and memory traffic are stamped with the RTL's cycles), and must not wait.
    std::vector<uint8_t> copy(gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length());
    tlm::tlm_generic_payload t;
    t.set_command(gp.get_command());
    t.set_address(gp.get_address());
    t.set_data_ptr(copy.data());
    t.set_data_length(unsigned(copy.size()));
    t.set_streaming_width(unsigned(copy.size()));
    std::vector<uint8_t> be;  // the same byte enables (a strobed write)
    if (gp.get_byte_enable_ptr() && gp.get_byte_enable_length()) {
      be.assign(gp.get_byte_enable_ptr(), gp.get_byte_enable_ptr() + gp.get_byte_enable_length());
      t.set_byte_enable_ptr(be.data());
      t.set_byte_enable_length(unsigned(be.size()));
    }
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    bool presented = false;
    uint64_t responded = 0;  // the RTL's response handshake (core_->cycle() may be past it: a busy block's clock
                             // thread is at the next edge when this thread resumes)
    const uint64_t g = core_->access(
        gp,
        [&](uint64_t cycle) {
          presented = true;
          if (!lockstep_->failed()) ref_->access(t, cycle);
        },
        &responded);
    if (presented && gp.is_response_ok())
      lockstep_->compare_access(gp, copy.data(), g, responded - g, ref_->response_cycles(t));
  }

  void count_and_send(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
    if (gp.is_read()) {
      ++mem_reads_;
      bytes_read_ += gp.get_data_length();
    } else {
      ++mem_writes_;
      bytes_written_ += gp.get_data_length();
    }
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    (*mem)->b_transport(gp, d);
    if (lockstep_) lockstep_->rtl_transaction(core_->cycle(), gp, sc_core::sc_time_stamp() - t0 + d);
  }

  void irq_edge(unsigned k, bool level) {
    if (level) {
      ++irqs_;
      if (irq_[k]->size()) (*irq_[k])->raise(irq_vector_ + k, sc_core::SC_ZERO_TIME);
    }
    if (lockstep_) lockstep_->rtl_irq(core_->cycle(), k, level);
  }

  const RtlBlockType& type_;
  Implementation mode_;
  std::string initiator_;
  BlockEnv env_;
  unsigned irq_vector_ = 0, reset_cycles_ = 0;
  std::vector<std::unique_ptr<IrqPort>> irq_;
  std::unique_ptr<RtlCore> core_;
  std::unique_ptr<ReferenceModel> ref_;
  uint64_t reg_reads_ = 0, reg_writes_ = 0, mem_reads_ = 0, mem_writes_ = 0, bytes_read_ = 0, bytes_written_ = 0,
           irqs_ = 0;
  std::unique_ptr<BlockLockstep> lockstep_;  // mode: lockstep
  RelaxedRules relaxed_;                     // `relax:` (the RTL's own copy counts the breaks)
};

}  // namespace

void RtlBlockConfig::validate(Diagnostics& d) const {
  if (Clock::ps(clock.period()) < 2) d.error(clock.where() + ": clock too fast (the period must be at least 2 ps)");
  if (waves_stop() > sc_core::SC_ZERO_TIME && waves_stop() < waves_start())
    d.error(waves_stop.where() + ": the window ends (" + waves_stop().to_string() + ") before it starts (" +
            waves_start().to_string() + ")");
  if (!relax) return;
  const YAML::Node& n = relax.node();
  const std::string can = "; the rules a block can relax: " + relaxable_rule_ids();
  if (!n.IsSequence()) return d.error(relax.where() + ": a list of rule ids, e.g. [axi.r_after_ar]" + can);
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string id = n[i].IsScalar() ? n[i].Scalar() : std::string("?");
    const RuleSpec* r = find_rule(id);
    if (!r)
      d.error(relax.where() + format(": unknown rule '%s' (relax[%zu])", id.c_str(), i) + can);
    else if (!r->relaxed)
      d.error(relax.where() +
              format(": rule %s cannot be relaxed (relax[%zu]): the bridge cannot go on without it (", id.c_str(), i) +
              r->text + ")" + can);
  }
}

RelaxedRules RtlBlockConfig::relaxed_rules() const {
  RelaxedRules out;
  if (relax && relax.node().IsSequence())
    for (const YAML::Node& e : relax.node())
      if (const RuleSpec* r = e.IsScalar() ? find_rule(e.Scalar()) : nullptr; r && r->relaxed) out.relax(r->rule);
  return out;
}

void RtlBlockConfig::validate(const RtlBlockType& t, Diagnostics& d) const {
  if (mode != Implementation::rtl && !RtlReferenceRegistry::get().find(t.reference))
    d.error(mode.where() + ": mode " + mode.word() + " needs a TLM reference model of rtl." + t.name +
            ", and none is registered (HETVP_REGISTER_RTL_REFERENCE)");
  // A Verilated model has one trace format (hetvp_add_rtl_block WAVES vcd|fst): a file named for
  // the other would hold the wrong format under its name. The ring buffer is hetvp's own VCD.
  auto ends_with = [](const std::string& s, const std::string& e) {
    return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
  };
  const bool fst = t.waves == "fst";
  if (ends_with(waves, fst ? ".vcd" : ".fst"))
    d.error(waves.where() + ": '" + waves() + "': rtl." + t.name + " writes " + (fst ? "FST" : "VCD") +
            " waveforms (hetvp_add_rtl_block WAVES " + t.waves + "; Verilator --trace" + (fst ? "-fst" : "") +
            "): name the file ." + t.waves +
            (fst ? "" : " (GTKWave's vcd2fst converts it), or build the block with WAVES fst"));
  if (ends_with(ring_file, ".fst"))
    d.error(ring_file.where() + ": '" + ring_file() +
            "': the ring buffer of the last cycles is written as VCD: name the file .vcd");
}

void register_rtl_component(const RtlBlockType& t, const void* registrar) {
  RtlBlockRegistry::get().add(t, registrar);
  std::string ports = "ports: regs (target, " + std::string(t.bus == "apb" ? "APB" : "AXI4-Lite") + " slave)";
  if (t.master) ports += ", mem (initiator, AXI4 master)";
  if (t.irqs == 1) ports += ", irq (interrupt out)";
  for (unsigned k = 0; t.irqs > 1 && k < t.irqs; ++k) ports += format(", irq%u", k);
  if (t.irqs > 1) ports += " (interrupts out)";
  const std::string name = t.name;
  // One ComponentType per block, added at run time (a plugin's or hetvp's own blocks): the
  // parameters are RtlBlockConfig's for every block; the block's build (`name`) picks the checks.
  ComponentRegistry::get().add(ComponentType{
      "rtl." + t.name, "Verilated RTL block " + t.name + " (top " + t.top + "; modes rtl, tlm, lockstep); " + ports,
      [] { return RtlBlockConfig{}.schema(); },
      [name](const char* n, const Params& p) -> Component* {
        return new RtlComponent(n, load<RtlBlockConfig>(p), *RtlBlockRegistry::get().find(name));
      },
      [name](const Params& p, Diagnostics& d) {
        d.collect([&] {
          const auto c = load<RtlBlockConfig>(p);
          c.validate(d);
          c.validate(*RtlBlockRegistry::get().find(name), d);
        });
      }},
      registrar);
}

}  // namespace hetvp::rtl

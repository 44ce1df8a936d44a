// hetvp — the `hetvp` program's usage text, assembled from the registered commands.
#include "platform/cli/command.h"

#include <algorithm>
#include <iostream>

#include "platform/simulation.h"

namespace hetvp::cli {

std::string main_usage() {
  std::vector<const Command*> listed;
  for (const auto& [name, c] : CommandRegistry::get().entries())
    if (!c.help.empty()) listed.push_back(&c);
  std::stable_sort(listed.begin(), listed.end(), [](const Command* a, const Command* b) { return a->order < b->order; });
  std::string u =
      "usage: hetvp COMMAND [options]\n"
      "\n"
      "commands:\n";
  for (const Command* c : listed) u += c->help;
  u +=
      "\n"
      "`hetvp COMMAND --help` describes a command's options.\n"
      "exit status: 0 success, 1 the simulated system reported a failure, 2 usage or configuration error\n";
  return u;
}

int usage_error(const std::string& msg, const std::string& usage) {
  std::cerr << "error: " << msg << "\n" << usage;
  return kExitUsage;
}

namespace {
// CLI11's help with hetvp's usage line first: "usage: hetvp run CONFIG [options]", the command's
// description, then CLI11's option list.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter(std::string usage, std::string about) : usage_(std::move(usage)), about_(std::move(about)) {
    column_width(28);
  }
  std::string make_description(const CLI::App*) const override { return usage_ + "\n" + about_; }
  std::string make_usage(const CLI::App*, std::string) const override { return ""; }

 private:
  std::string usage_, about_;
};
}  // namespace

std::unique_ptr<CLI::App> make_parser(const std::string& usage, const std::string& about) {
  auto app = std::make_unique<CLI::App>();
  app->formatter(std::make_shared<HelpFormatter>(usage, about));
  app->allow_extras();  // parse_args names what is left over in hetvp's words
  app->get_help_ptr()->description("print this help and exit (status 0)");
  return app;
}

int parse_args(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  reversed.pop_back();                                            // without the command's name
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what(), app.help());
  }
  for (const std::string& r : app.remaining())
    return usage_error((r.size() > 1 && r[0] == '-' ? "unknown option '" : "unexpected argument '") + r + "'",
                       app.help());
  return -1;
}

}  // namespace hetvp::cli

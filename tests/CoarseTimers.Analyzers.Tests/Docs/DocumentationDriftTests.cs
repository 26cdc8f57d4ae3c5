using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.Docs;

/// <summary>
/// The docs that users read next to a diagnostic cannot drift from the code: every help link names a rule page that
/// exists, every rule page shows its descriptor's message, and docs/configuration.md lists exactly the options the
/// analyzers read.
/// </summary>
public class DocumentationDriftTests
{
    private const string HelpLinkPrefix = "https://github.com/coarse-timers/coarse-timers/blob/main/";

    public static TheoryData<string> RuleIds => new(Descriptors().Select(d => d.Id));

    [Fact]
    public void Every_rule_has_a_descriptor_and_a_page() =>
        Assert.Equal(
            Directory.GetFiles(Path.Combine(RepositoryRoot, "docs", "rules"), "CT*.md").Select(Path.GetFileNameWithoutExtension).Order(),
            Descriptors().Select(d => d.Id).Order());

    [Theory]
    [MemberData(nameof(RuleIds))]
    public void The_help_link_names_the_rule_page(string id)
    {
        var descriptor = Descriptors().Single(d => d.Id == id);
        Assert.StartsWith(HelpLinkPrefix, descriptor.HelpLinkUri, StringComparison.Ordinal);
        var page = descriptor.HelpLinkUri.Substring(HelpLinkPrefix.Length);
        Assert.Equal($"docs/rules/{id}.md", page);
        Assert.True(File.Exists(Path.Combine(RepositoryRoot, page)), $"{descriptor.HelpLinkUri} names a page that does not exist");
    }

    [Theory]
    [MemberData(nameof(RuleIds))]
    public void The_rule_page_shows_the_descriptors_title_and_message(string id)
    {
        var descriptor = Descriptors().Single(d => d.Id == id);
        var page = File.ReadAllText(Path.Combine(RepositoryRoot, "docs", "rules", id + ".md"));
        var heading = page.Split('\n')[0];
        Assert.Equal($"# {id}: {descriptor.Title}", heading.Replace("`", "", StringComparison.Ordinal));
        Assert.Contains($"| Message | `{descriptor.MessageFormat}`", page, StringComparison.Ordinal);
    }

    [Fact]
    public void Configuration_lists_exactly_the_options_the_analyzers_read()
    {
        var read = new HashSet<string>();
        foreach (var id in Descriptors().Select(d => d.Id))
        {
            var recorder = new RecordingOptions();
            AnalyzerSettings.Read(recorder, id);
            read.UnionWith(recorder.Asked.Select(k => Regex.Replace(k, @"^coarse_timers\.(ct\d{4}\.)?", "", RegexOptions.IgnoreCase)));
        }

        var page = File.ReadAllText(Path.Combine(RepositoryRoot, "docs", "configuration.md"));
        var documented = Regex.Matches(page, @"^\| `coarse_timers\.([a-z_]+)`", RegexOptions.Multiline).Select(m => m.Groups[1].Value).ToHashSet();
        var mentioned = Regex.Matches(page, @"coarse_timers\.(?:CT\d{4}\.)?([a-z_]+)").Select(m => m.Groups[1].Value).ToHashSet();

        Assert.NotEmpty(read);
        Assert.Equal(read.Order(), documented.Order());
        Assert.Subset(documented, mentioned);
    }

    [Fact]
    public void Architecture_names_every_project_folder_and_public_runtime_type()
    {
        var page = File.ReadAllText(Path.Combine(RepositoryRoot, "docs", "architecture.md"));
        var folders = new[] { "src", "tests", "tools", "samples" }
            .Where(top => Directory.Exists(Path.Combine(RepositoryRoot, top)))
            .SelectMany(top => Directory.GetDirectories(Path.Combine(RepositoryRoot, top)).Select(d => top + "/" + Path.GetFileName(d)));
        Assert.All(folders, folder => Assert.Contains($"`{folder}`", page, StringComparison.Ordinal));

        var types = typeof(CoarseTimers.CoarseTimer).Assembly.GetExportedTypes().Select(t => t.Name);
        Assert.All(types, type => Assert.Contains($"`{type}`", page, StringComparison.Ordinal));
    }

    private static IEnumerable<DiagnosticDescriptor> Descriptors() =>
        typeof(DiagnosticIds).Assembly.GetTypes()
            .Where(t => !t.IsAbstract && typeof(DiagnosticAnalyzer).IsAssignableFrom(t))
            .SelectMany(t => ((DiagnosticAnalyzer)Activator.CreateInstance(t)!).SupportedDiagnostics)
            .OrderBy(d => d.Id);

    private static string RepositoryRoot
    {
        get
        {
            for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "Analyzers.sln")))
                {
                    return directory.FullName;
                }
            }

            throw new InvalidOperationException("The repository root (Analyzers.sln) is not above " + AppContext.BaseDirectory);
        }
    }

    /// <summary>Answers no key, and records every key asked for.</summary>
    private sealed class RecordingOptions : AnalyzerConfigOptions
    {
        public List<string> Asked { get; } = new();

        public override bool TryGetValue(string key, [NotNullWhen(true)] out string? value)
        {
            Asked.Add(key);
            value = null;
            return false;
        }
    }
}

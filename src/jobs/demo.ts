/**
 * Demo job posts for development and `careers-admin jobs seed --demo`: a dozen realistic jobs
 * over every job type and work mode, some inactive, with questions of all five answer types, in
 * five departments, one paid by the hour and one remote job open to a list of countries.
 */
const perks = '<ul><li>Health, dental and vision cover for you and your family</li><li>25 days of paid leave plus public holidays</li><li>Yearly learning budget of USD 1,500</li><li>Home-office stipend</li></ul>';

const q = {
  years: { text: '<p>How many years of professional experience do you have in this field?</p>', answer_type: 'number', required: true, placeholder: 'e.g. 4', help_text: '' },
  why: { text: '<p>Why do you want to join <strong>us</strong>?</p>', answer_type: 'long_text', required: true, placeholder: 'A few sentences are enough', help_text: '<p>Tell us what draws you to this role.</p>' },
  portfolio: { text: '<p>Link to your portfolio, GitHub or LinkedIn</p>', answer_type: 'short_text', required: false, placeholder: 'https://', help_text: '' },
  start: { text: '<p>When could you start?</p>', answer_type: 'single_choice', required: true, placeholder: '', help_text: '', options: ['Immediately', 'Within 1 month', 'Within 2–3 months', 'Later than 3 months'] },
  visa: { text: '<p>Will you now or in the future require visa sponsorship?</p>', answer_type: 'single_choice', required: true, placeholder: '', help_text: '', options: ['Yes', 'No'] },
  stack: { text: '<p>Which of these have you used in production?</p>', answer_type: 'checkbox', required: false, placeholder: '', help_text: '<p>Tick all that apply.</p>', options: ['TypeScript', 'Node.js', 'React', 'PostgreSQL', 'MySQL', 'Kubernetes'] },
  shifts: { text: '<p>Which shifts can you work?</p>', answer_type: 'checkbox', required: true, placeholder: '', help_text: '', options: ['Morning', 'Afternoon', 'Evening', 'Weekends'] },
};

export const DEMO_JOBS: Record<string, unknown>[] = [
  {
    public_id: 'senior-backend-engineer', department: 'Engineering', title: 'Senior Backend Engineer', location: 'Bengaluru, India', job_type: 'FULL_TIME', work_mode: 'HYBRID', status: 'ACTIVE',
    currency: 'INR', min_salary: 3000000, max_salary: 4500000, experience_required: '5+ years',
    description: '<p>We are looking for a backend engineer to design and run the services behind our hiring platform, used by thousands of companies every day.</p>',
    responsibilities: '<ul><li>Design, build and operate APIs in TypeScript and Node.js</li><li>Own data models in MySQL and their migrations</li><li>Review code and mentor engineers</li></ul>',
    requirements: '<ul><li>5+ years building backend services</li><li>Strong SQL and data-modelling skills</li><li>Experience running services in production</li></ul>',
    perks_benefits: perks,
    questions: [q.years, q.why, q.portfolio, q.start, q.stack],
  },
  {
    public_id: 'frontend-engineer-react', department: 'Engineering', title: 'Frontend Engineer (React)', location: 'Remote — Europe', job_type: 'FULL_TIME', work_mode: 'REMOTE', status: 'ACTIVE',
    currency: 'EUR', min_salary: 60000, max_salary: 80000, experience_required: '3+ years',
    applicant_countries: ['DE', 'NL', 'PL', 'PT', 'ES'],
    description: '<p>Build fast, accessible interfaces for applicants and recruiters.</p>',
    responsibilities: '<ul><li>Ship features end to end in React and TypeScript</li><li>Care about accessibility and performance</li></ul>',
    requirements: '<ul><li>3+ years with React</li><li>Good eye for detail and usability</li></ul>',
    perks_benefits: perks,
    questions: [q.portfolio, q.stack, q.visa],
  },
  {
    public_id: 'product-designer', department: 'Design', title: 'Product Designer', location: 'London, United Kingdom', job_type: 'FULL_TIME', work_mode: 'HYBRID', status: 'ACTIVE',
    currency: 'GBP', min_salary: 55000, max_salary: 70000, experience_required: '4+ years',
    description: '<p>Shape the experience of our careers product from research to pixel-perfect design.</p>',
    responsibilities: '<ul><li>Run user research with applicants and HR teams</li><li>Own the design system</li></ul>',
    requirements: '<p>A portfolio showing end-to-end product work.</p>',
    perks_benefits: perks,
    questions: [q.portfolio, q.why],
  },
  {
    public_id: 'hr-generalist', department: 'People', title: 'HR Generalist', location: 'Mumbai, India', job_type: 'FULL_TIME', work_mode: 'ONSITE', status: 'ACTIVE',
    currency: 'INR', min_salary: 800000, max_salary: 1200000, experience_required: '2+ years',
    description: '<p>Support our people team across onboarding, benefits and employee relations.</p>',
    responsibilities: '<ul><li>Run onboarding for new joiners</li><li>Keep HR records accurate and compliant</li></ul>',
    requirements: '<ul><li>Degree in HR or related field</li><li>Knowledge of Indian labour law</li></ul>',
    perks_benefits: '', questions: [q.years, q.start],
  },
  {
    public_id: 'customer-support-associate', department: 'Customer Support', title: 'Customer Support Associate', location: 'Manila, Philippines', job_type: 'PART_TIME', work_mode: 'ONSITE', status: 'ACTIVE',
    currency: 'USD', min_salary: null, max_salary: null, experience_required: '',
    description: '<p>Help our customers succeed by answering their questions by chat and email.</p>',
    responsibilities: '', requirements: '<ul><li>Excellent written English</li></ul>', perks_benefits: '',
    questions: [q.shifts, q.start],
  },
  {
    public_id: 'data-analyst-contract', department: 'Data', title: 'Data Analyst', location: 'Austin, TX, United States', job_type: 'CONTRACT', work_mode: 'REMOTE', status: 'ACTIVE',
    currency: 'USD', min_salary: 70000, max_salary: 90000, experience_required: '2+ years', duration: '6 months',
    description: '<p>Turn hiring data into insights our customers act on.</p>',
    responsibilities: '<ul><li>Build dashboards</li><li>Write clear analyses</li></ul>', requirements: '<ul><li>SQL and one of Python or R</li></ul>', perks_benefits: '',
    questions: [q.years, q.visa],
  },
  {
    public_id: 'devops-engineer', department: 'Engineering', title: 'DevOps Engineer', location: 'Berlin, Germany', job_type: 'CONTRACT', work_mode: 'HYBRID', status: 'ACTIVE',
    currency: 'EUR', min_salary: 90000, max_salary: null, experience_required: '4+ years', duration: '12 months',
    description: '<p>Keep our platform fast, observable and secure.</p>',
    responsibilities: '<ul><li>Run Kubernetes clusters</li><li>Automate everything</li></ul>', requirements: '', perks_benefits: '',
    questions: [q.stack, q.start],
  },
  {
    public_id: 'marketing-intern', department: 'Marketing', title: 'Marketing Intern', location: 'New York, NY, United States', job_type: 'INTERNSHIP', work_mode: 'ONSITE', status: 'ACTIVE',
    // About $45,000 a year pro rata, above New York's minimum wage.
    currency: 'USD', min_salary: null, max_salary: 22, salary_period: 'HOUR', experience_required: 'Students welcome', duration: '3 months',
    description: '<p>Learn how a B2B SaaS company grows, working beside our marketing team.</p>',
    responsibilities: '', requirements: '', perks_benefits: '<ul><li>Mentorship</li><li>Paid internship</li></ul>',
    questions: [q.why],
  },
  {
    public_id: 'software-engineering-intern', department: 'Engineering', title: 'Software Engineering Intern', location: 'Bengaluru, India', job_type: 'INTERNSHIP', work_mode: 'HYBRID', status: 'ACTIVE',
    // Salaries are yearly figures (JSON-LD unitText YEAR): a stipend of ₹40,000 a month is ₹4,80,000 a year.
    currency: 'INR', min_salary: 480000, max_salary: 480000, experience_required: '', duration: '6 months',
    description: '<p>Work on real features with a senior engineer as your mentor.</p>',
    responsibilities: '', requirements: '<ul><li>Final-year student in computer science or similar</li></ul>', perks_benefits: '',
    questions: [],
  },
  {
    public_id: 'security-engineer', department: 'Engineering', title: 'Security Engineer', location: 'Remote — United States', job_type: 'FULL_TIME', work_mode: 'REMOTE', status: 'ACTIVE',
    currency: 'USD', min_salary: 150000, max_salary: 190000, experience_required: '6+ years',
    description: '<p>Protect applicant data and keep us compliant with SOC 2 and GDPR.</p>',
    responsibilities: '<ul><li>Threat modelling and reviews</li><li>Incident response</li></ul>', requirements: '<ul><li>Application security experience</li></ul>', perks_benefits: perks,
    questions: [q.years, q.visa, q.portfolio],
  },
  {
    public_id: 'office-coordinator', department: 'People', title: 'Office Coordinator', location: 'Toronto, Canada', job_type: 'PART_TIME', work_mode: 'ONSITE', status: 'INACTIVE',
    currency: 'CAD', min_salary: 30000, max_salary: 38000, experience_required: '1+ year',
    description: '<p>Keep our Toronto office running smoothly.</p>', responsibilities: '', requirements: '', perks_benefits: '',
    questions: [q.shifts],
  },
  {
    public_id: 'recruiter', department: 'People', title: 'Technical Recruiter', location: 'Singapore', job_type: 'FULL_TIME', work_mode: 'HYBRID', status: 'INACTIVE',
    currency: 'SGD', min_salary: 70000, max_salary: 95000, experience_required: '3+ years',
    description: '<p>Find and hire great engineers across Asia.</p>', responsibilities: '', requirements: '', perks_benefits: perks,
    questions: [q.years, q.why],
  },
];
